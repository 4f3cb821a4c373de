// A real glTF client: three.js GLTFLoader (in node) reads a GLB and reports
// every node's world matrix for a list of evaluations:
//   {"clip": "<animation name>", "time": seconds}   sample that clip's tracks
//   {"drive": {"<joint>": value, ...}}              drive caller joints the way a
//        game reads <stem>.interface.json: rotate the joint's node from its
//        default rotation about axisVector by (value - rest), or translate it
//        from its default position along axisVector by (value - rest).
//   {"expressions": {"<name>": weight, ...}}   a VRM avatar (request.vrm: the
//        file is loaded with @pixiv/three-vrm's VRMLoaderPlugin): every
//        expression back to 0, these set, then the expression manager's
//        update(), as an app drives a VRM's face
// Usage: node three_probe.mjs request.json   (request: {glb, interface?, vrm?, evaluations[], vertices?})
// Prints {"evaluations": [{"worlds": {"<node>": [16 numbers, column-major]},
//         "vertices": [x, y, z, ...]}]}: with `vertices`, every mesh's vertices
// posed by three.js itself (Mesh.getVertexPosition: morph targets, then the
// skin), in world space, meshes in scene order. A VRM's answer adds
// "expressions": the names three-vrm found, in its order.
import { readFile } from 'node:fs/promises';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';

const request = JSON.parse(await readFile(process.argv[2], 'utf8'));
const bytes = await readFile(request.glb);
const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const loader = new GLTFLoader();
if (request.vrm) loader.register((parser) => new VRMLoaderPlugin(parser));
const gltf = await new Promise((resolve, reject) => loader.parse(arrayBuffer, '', resolve, reject));
const expressionManager = request.vrm ? gltf.userData.vrmExpressionManager : null;
if (request.vrm && !expressionManager) throw new Error('three-vrm found no expressions in the file');
const iface = request.interface ? JSON.parse(await readFile(request.interface, 'utf8')) : { joints: [] };

const scene = gltf.scene;
const nodes = [];
scene.traverse((o) => { if (o !== scene) nodes.push(o); });
const defaults = new Map(nodes.map((o) => [o, {
  p: o.position.clone(), q: o.quaternion.clone(), s: o.scale.clone(),
  w: o.morphTargetInfluences ? [...o.morphTargetInfluences] : null,
}]));
const reset = () => {
  for (const [o, d] of defaults) {
    o.position.copy(d.p); o.quaternion.copy(d.q); o.scale.copy(d.s);
    if (d.w) o.morphTargetInfluences.splice(0, d.w.length, ...d.w);
  }
};

const results = [];
for (const evaluation of request.evaluations) {
  reset();
  if (evaluation.clip !== undefined) {
    const clip = gltf.animations.find((a) => a.name === evaluation.clip);
    if (!clip) throw new Error(`no animation named ${evaluation.clip}`);
    for (const track of clip.tracks) {
      const dot = track.name.lastIndexOf('.');
      const target = scene.getObjectByName(track.name.slice(0, dot));
      const property = track.name.slice(dot + 1);
      const value = track.createInterpolant().evaluate(evaluation.time);
      if (property === 'quaternion') target.quaternion.fromArray(value).normalize();
      else if (property === 'position') target.position.fromArray(value);
      else if (property === 'scale') target.scale.fromArray(value);
      else if (property === 'morphTargetInfluences') target.morphTargetInfluences.splice(0, value.length, ...value);
    }
  }
  if (evaluation.drive) {
    for (const [name, value] of Object.entries(evaluation.drive)) {
      const joint = iface.joints.find((j) => j.name === name);
      if (!joint) throw new Error(`no caller joint ${name} in the interface`);
      const node = scene.getObjectByName(joint.node);
      const d = defaults.get(node);
      const axis = new THREE.Vector3().fromArray(joint.axisVector);
      if (joint.kind === 'rotation') {
        node.quaternion.copy(d.q).multiply(new THREE.Quaternion().setFromAxisAngle(axis, value - joint.rest));
      } else {
        node.position.copy(d.p).addScaledVector(axis, value - joint.rest);
      }
    }
  }
  if (evaluation.expressions) {
    expressionManager.resetValues();
    for (const [name, weight] of Object.entries(evaluation.expressions)) {
      if (!expressionManager.getExpression(name)) throw new Error(`no expression named ${name}`);
      expressionManager.setValue(name, weight);
    }
    expressionManager.update();
  }
  scene.updateMatrixWorld(true);
  const worlds = {};
  for (const o of nodes) worlds[o.name] = Array.from(o.matrixWorld.elements);
  const result = { worlds };
  if (request.vertices) {
    const v = new THREE.Vector3();
    result.vertices = [];
    for (const o of nodes) {
      if (!o.isMesh) continue;
      if (o.isSkinnedMesh) o.skeleton.update();  // a renderer would, before drawing
      const count = o.geometry.attributes.position.count;
      for (let i = 0; i < count; ++i) {
        o.getVertexPosition(i, v).applyMatrix4(o.matrixWorld);
        result.vertices.push(v.x, v.y, v.z);
      }
    }
  }
  results.push(result);
}
const answer = { evaluations: results, animations: gltf.animations.map((a) => a.name) };
if (expressionManager) answer.expressions = expressionManager.expressions.map((e) => e.expressionName);
console.log(JSON.stringify(answer));
