// The Khronos glTF Validator over each file named: one line of JSON a file,
// {"file": NAME, "errors": N, "messages": [...]}, each message its code, where and what.
//   NODE_PATH=target/tools/node_modules node tests/inputs/validate.cjs FILE...
const fs = require("fs");
const validator = require("gltf-validator");

async function main() {
    for (const file of process.argv.slice(2)) {
        const bytes = new Uint8Array(fs.readFileSync(file));
        const report = await validator.validateBytes(bytes, {
            uri: file,
            maxIssues: 50,
            // A GLB written by skinlab names no file beside it; one that does fails here.
            externalResourceFunction: (uri) => Promise.reject(`${uri}: nothing is read beside it`),
        });
        const errors = report.issues.messages.filter((m) => m.severity === 0);
        console.log(JSON.stringify({
            file,
            errors: report.issues.numErrors,
            messages: errors.map((m) => `${m.code} at ${m.pointer || "-"}: ${m.message}`),
        }));
    }
}

main().catch((e) => {
    console.error(`the validator could not run: ${e}`);
    process.exit(1);
});
