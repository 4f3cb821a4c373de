// An independent glTF writer: three.js's GLTFExporter (in node) writes the
// files an artist's tools would, built here as three.js scenes:
//   skinned.glb    a skinned column on three bones with a clip that bends and
//                  lifts them, a box parented to a bone and a cone at the
//                  root beside the skinned mesh (not skinned)
//   morph.glb      a plane with two morph targets, default weights and a clip
//                  animating them
//   expressions.glb  a face-like sheet with 40 morph targets, each a bump on
//                  its own patch (as expression shapes are), and a clip that
//                  plays them one after another: the only animation drives
//                  morph weights, no skin
//   viewpoints.glb a red box and a green ball on a grey floor, two cameras
//                  (perspective 40 deg at 3:2, orthographic) and three
//                  lights (directional, point, spot), as three.js writes
//                  them (glTF cameras, KHR_lights_punctual)
//   textured.glb   two textured quads: one alpha MASK (a cut-out pattern), one
//                  alpha BLEND (half transparent), a checker texture each
// Usage: node three_export.mjs OUT_DIR
// GLTFExporter runs in browsers; node lacks the two things it uses: a
// FileReader (for the GLB's Blob) and an OffscreenCanvas (to encode a
// texture as PNG). Both are written below on node's Blob and zlib, the PNG
// by the PNG specification (filter 0 rows, zlib, CRC-32).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import zlib from 'node:zlib';
import * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';

globalThis.FileReader = class {
  readAsArrayBuffer(blob) {
    blob.arrayBuffer().then((buffer) => {
      this.result = buffer;
      this.onloadend?.();
    });
  }
};

function png(width, height, rgba) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);  // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; ++y) Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(rows, y * (1 + width * 4) + 1);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

globalThis.ImageData = class {
  constructor(data, width, height) { Object.assign(this, { data, width, height }); }
};
globalThis.OffscreenCanvas = class {
  constructor(width, height) { Object.assign(this, { width, height, pixels: null }); }
  getContext() {
    const canvas = this;
    return {
      translate() { throw new Error('flipped textures are not needed here'); },
      scale() {},
      putImageData(image) { canvas.pixels = image.data; },
    };
  }
  async convertToBlob({ type }) {
    if (type !== 'image/png') throw new Error(`only PNG is written here, not ${type}`);
    return new Blob([png(this.width, this.height, this.pixels)]);
  }
};

const exporter = new GLTFExporter();
const exportGlb = (scene, animations) => new Promise((resolve, reject) =>
  exporter.parse(scene, (glb) => resolve(Buffer.from(glb)), reject, { binary: true, animations }));

// skinned.glb: a column of 4 rings of 6 vertices from y 0 to 3 on bones at
// y 0, 1 and 2; each ring weighted between the two nearest bones.
function skinnedScene() {
  const scene = new THREE.Scene();
  const geometry = new THREE.CylinderGeometry(0.3, 0.3, 3, 6, 3, true).translate(0, 1.5, 0);
  const position = geometry.attributes.position;
  const skinIndex = [], skinWeight = [];
  for (let i = 0; i < position.count; ++i) {
    const y = position.getY(i);
    const lower = Math.min(Math.floor(y), 1), t = Math.min(y - lower, 1);
    skinIndex.push(lower, lower + 1, 0, 0);
    skinWeight.push(1 - t * 0.6, t * 0.6, 0, 0);
  }
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  const bones = [new THREE.Bone(), new THREE.Bone(), new THREE.Bone()];
  bones.forEach((b, i) => { b.name = `bone${i}`; });
  bones[1].position.y = 1;
  bones[2].position.y = 1;
  bones[0].add(bones[1]);
  bones[1].add(bones[2]);
  const rig = new THREE.Group();
  rig.name = 'rig';
  rig.position.set(0.5, 0, -0.25);
  rig.add(bones[0]);
  const body = new THREE.SkinnedMesh(geometry, new THREE.MeshStandardMaterial({ color: 0x8899aa }));
  body.name = 'body';
  rig.add(body);
  rig.updateMatrixWorld(true);
  body.bind(new THREE.Skeleton(bones));
  const box = new THREE.Mesh(new THREE.BoxGeometry(0.4, 0.2, 0.4), new THREE.MeshStandardMaterial({ color: 0xcc5533 }));
  box.name = 'cap';
  box.position.y = 1.1;
  bones[2].add(box);  // follows the top bone, not skinned
  const cone = new THREE.Mesh(new THREE.ConeGeometry(0.3, 0.6, 5), new THREE.MeshStandardMaterial({ color: 0x33aa55 }));
  cone.name = 'marker';
  cone.position.set(-1, 0.3, 0);
  cone.rotation.z = 0.4;
  scene.add(rig, cone);
  const axisZ = new THREE.Vector3(0, 0, 1), axisX = new THREE.Vector3(1, 0, 0);
  const q = (axis, angle) => new THREE.Quaternion().setFromAxisAngle(axis, angle).toArray();
  const clip = new THREE.AnimationClip('bend', 2, [
    new THREE.QuaternionKeyframeTrack('bone1.quaternion', [0, 1, 2], [...q(axisZ, 0), ...q(axisZ, 0.7), ...q(axisX, -0.5)]),
    new THREE.QuaternionKeyframeTrack('bone2.quaternion', [0, 0.5, 2], [...q(axisZ, 0), ...q(axisZ, -0.6), ...q(axisZ, 0.3)]),
    new THREE.VectorKeyframeTrack('bone0.position', [0, 1, 2], [0, 0, 0, 0, 0.5, 0.2, 0, 0, 0]),
    new THREE.VectorKeyframeTrack('bone2.scale', [0, 2], [1, 1, 1, 1.5, 0.8, 1.2]),
  ]);
  const step = new THREE.AnimationClip('hop', 1, [
    new THREE.VectorKeyframeTrack('rig.position', [0, 0.5], [0.5, 0, -0.25, 0.5, 1, -0.25], THREE.InterpolateDiscrete),
  ]);
  return { scene, animations: [clip, step] };
}

// morph.glb: a 4 x 4 grid of quads with two position (and normal) targets.
function morphScene() {
  const scene = new THREE.Scene();
  const geometry = new THREE.PlaneGeometry(2, 2, 4, 4);
  const position = geometry.attributes.position;
  const up = [], twist = [], upNormals = [], twistNormals = [];
  for (let i = 0; i < position.count; ++i) {
    const x = position.getX(i), y = position.getY(i);
    up.push(0, 0, 0.5 * Math.cos(x) * Math.cos(y));
    twist.push(-0.3 * y, 0.3 * x, 0);
    upNormals.push(0, 0, 0);
    twistNormals.push(0, 0, 0);
  }
  geometry.morphAttributes.position = [new THREE.Float32BufferAttribute(up, 3), new THREE.Float32BufferAttribute(twist, 3)];
  geometry.morphAttributes.normal = [new THREE.Float32BufferAttribute(upNormals, 3), new THREE.Float32BufferAttribute(twistNormals, 3)];
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0x99aacc }));
  mesh.name = 'sheet';
  mesh.rotation.x = -Math.PI / 4;
  mesh.updateMorphTargets();
  mesh.morphTargetInfluences[0] = 0.25;
  scene.add(mesh);
  const clip = new THREE.AnimationClip('breathe', 1.5, [
    new THREE.NumberKeyframeTrack('sheet.morphTargetInfluences', [0, 0.75, 1.5], [0.25, 0, 1, 0.5, 0, 1]),
  ]);
  return { scene, animations: [clip] };
}

// expressions.glb: a 2 x 2 sheet (16 x 16 quads) and 40 targets; target t
// pushes the whole sheet out by 0.2 and lifts a disc of radius 0.35 around
// its own centre by up to 0.3 more (pulling it sideways by 0.1), as one
// expression moves one part of a face and a little of the rest. Every
// target's reach at weight 1 summed spans ~8 units out: a pose shows 0.5.
function expressionsScene() {
  const scene = new THREE.Scene();
  const geometry = new THREE.PlaneGeometry(2, 2, 16, 16);
  const position = geometry.attributes.position;
  const targets = 40, shapes = [], shapeNormals = [];
  for (let t = 0; t < targets; ++t) {
    const cx = 0.7 * Math.cos(t * 2.4), cy = 0.7 * Math.sin(t * 2.4);
    const d = [];
    for (let i = 0; i < position.count; ++i) {
      const r = Math.hypot(position.getX(i) - cx, position.getY(i) - cy);
      const bump = r < 0.35 ? Math.cos((r / 0.35) * Math.PI / 2) : 0;
      d.push(0.1 * bump * Math.sign(cx), 0, 0.2 + 0.3 * bump);
    }
    shapes.push(new THREE.Float32BufferAttribute(d, 3));
    shapeNormals.push(new THREE.Float32BufferAttribute(new Array(position.count * 3).fill(0), 3));
  }
  geometry.morphAttributes.position = shapes;
  geometry.morphAttributes.normal = shapeNormals;
  geometry.morphTargetsRelative = true;  // offsets from the sheet (three.js's default: target positions)
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0xd8b49c }));
  mesh.name = 'face';
  mesh.updateMorphTargets();
  scene.add(mesh);
  // Key k at k/4 s: target k at weight 1 (target 0 at 0.5 at the start), the others 0.
  const times = [], values = [];
  for (let k = 0; k < 8; ++k) {
    times.push(k / 4);
    for (let t = 0; t < targets; ++t) values.push(t === k ? (k === 0 ? 0.5 : 1) : 0);
  }
  const clip = new THREE.AnimationClip('talk', -1, [new THREE.NumberKeyframeTrack('face.morphTargetInfluences', times, values)]);
  return { scene, animations: [clip] };
}

// viewpoints.glb: what the interop test renders through the file's camera.
// The numbers here are the test's too (tst_interop_gltf_scene.cpp).
function viewpointsScene() {
  const scene = new THREE.Scene();
  const box = new THREE.Mesh(new THREE.BoxGeometry(0.4, 0.4, 0.4), new THREE.MeshStandardMaterial({ color: 0xff0000 }));
  box.name = 'box';
  box.position.set(1, 0.5, -2);
  const ball = new THREE.Mesh(new THREE.SphereGeometry(0.25, 16, 8), new THREE.MeshStandardMaterial({ color: 0x00ff00 }));
  ball.name = 'ball';
  ball.position.set(-1, 0.25, 0);
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(6, 6), new THREE.MeshStandardMaterial({ color: 0x808080 }));
  floor.name = 'floor';
  floor.rotation.x = -Math.PI / 2;
  const shot = new THREE.PerspectiveCamera(40, 1.5, 0.1, 50);
  shot.name = 'shot';
  shot.position.set(0.5, 1.5, 3);
  shot.lookAt(0, 0.3, -1);
  const top = new THREE.OrthographicCamera(-3, 3, 2, -2, 0.5, 20);
  top.name = 'top';
  top.position.set(0, 8, 0.01);  // not straight down: lookAt's up stays defined
  top.lookAt(0, 0, 0);
  const sun = new THREE.DirectionalLight(0xfff0e0, 3);
  sun.name = 'sun';
  sun.position.set(2, 4, 1);
  const bulb = new THREE.PointLight(0xffffff, 20, 8, 2);
  bulb.name = 'bulb';
  bulb.position.set(-1, 2, 1);
  const lamp = new THREE.SpotLight(0xffffff, 50, 10, 0.5, 0.2, 2);
  lamp.name = 'lamp';
  lamp.position.set(1, 3, -2);
  scene.add(box, ball, floor, shot, top, sun, bulb, lamp);
  return { scene, animations: [] };
}

// textured.glb: a cut-out quad (MASK: texels with alpha 0 in a stripe pattern)
// and a half-transparent one (BLEND), each with a 4 x 4 checker texture.
function texturedScene() {
  const scene = new THREE.Scene();
  const texture = (alphaOf) => {
    const data = new Uint8Array(4 * 4 * 4);
    for (let y = 0; y < 4; ++y) for (let x = 0; x < 4; ++x) {
      const i = (y * 4 + x) * 4, on = (x + y) % 2 === 0;
      data.set([on ? 230 : 40, on ? 200 : 60, on ? 40 : 220, alphaOf(x, y)], i);
    }
    const t = new THREE.DataTexture(data, 4, 4, THREE.RGBAFormat);
    t.magFilter = THREE.NearestFilter;
    t.minFilter = THREE.NearestFilter;
    t.needsUpdate = true;
    return t;
  };
  const masked = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshStandardMaterial({
    map: texture((x) => (x === 1 ? 0 : 255)), alphaTest: 0.5, side: THREE.DoubleSide }));
  masked.name = 'stencil';
  masked.position.x = -0.6;
  const glass = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshStandardMaterial({
    map: texture(() => 255), transparent: true, opacity: 0.5 }));
  glass.name = 'glass';
  glass.position.set(0.6, 0, 0.2);
  scene.add(masked, glass);
  return { scene, animations: [] };
}

const out = process.argv[2];
const scenes = [['skinned.glb', skinnedScene], ['morph.glb', morphScene], ['expressions.glb', expressionsScene],
  ['viewpoints.glb', viewpointsScene], ['textured.glb', texturedScene]];
for (const [name, make] of scenes) {
  const { scene, animations } = make();
  await writeFile(join(out, name), await exportGlb(scene, animations));
}
console.log(JSON.stringify({ files: scenes.map(([name]) => name) }));
