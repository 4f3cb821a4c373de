// The peer of RigLens' glTF load in tools/bench-gltf-load.sh: three.js's
// GLTFLoader (in node) reads and parses a whole GLB, every accessor made a
// typed array as a browser would upload it. Prints one JSON line:
// {"ms": parse time, "triangles": n}. Usage: node three_load.mjs FILE.glb
import { readFile } from 'node:fs/promises';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const start = performance.now();
const bytes = await readFile(process.argv[2]);
const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(arrayBuffer, '', resolve, reject));
let triangles = 0;
gltf.scene.traverse((o) => {
  if (!o.isMesh) return;
  const g = o.geometry;
  triangles += (g.index ? g.index.count : g.attributes.position.count) / 3;
});
console.log(JSON.stringify({ ms: performance.now() - start, triangles }));
