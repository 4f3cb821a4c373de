// Runs the Khronos glTF-Validator on each file given and prints one JSON
// object per file: {file, numErrors, numWarnings, numInfos, messages[]}.
// Exit code 0 when every report was produced (whatever it says), 1 otherwise.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { validateBytes } from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validateBytes(bytes, {
      maxIssues: 0,
      writeTimestamp: false,
      // .gltf files name their .bin by a relative uri.
      externalResourceFunction: async (uri) => new Uint8Array(await readFile(join(dirname(file), decodeURIComponent(uri)))),
    });
    const messages = report.issues.messages.map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
    console.log(JSON.stringify({
      file,
      numErrors: report.issues.numErrors,
      numWarnings: report.issues.numWarnings,
      numInfos: report.issues.numInfos,
      messages,
    }));
  } catch (error) {
    console.error(`${file}: validator failed: ${error}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
