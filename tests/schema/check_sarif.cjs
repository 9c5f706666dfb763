// SPDX-License-Identifier: Apache-2.0
// Validates SARIF logs against the SARIF 2.1.0 JSON Schema (draft-04) with ajv, formats included (uri,
// uri-reference, date-time): usage: node check_sarif.cjs NPM_DIR SCHEMA FILE...
// Exits 0 when every file is valid, 1 (listing the errors) otherwise.
"use strict";
const fs = require("fs");
const path = require("path");
const [npmDir, schemaPath, ...files] = process.argv.slice(2);
const req = (name) => require(path.resolve(npmDir, "node_modules", name));
const Ajv = req("ajv-draft-04");
const addFormats = req("ajv-formats");

// unicodeRegExp off: the schema's `language` pattern has a stray "]" that only non-unicode regexps accept.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, "utf8")));
let bad = 0;
for (const f of files) {
  const ok = validate(JSON.parse(fs.readFileSync(f, "utf8")));
  if (!ok) {
    bad++;
    console.log(`${f}: INVALID: ${ajv.errorsText(validate.errors, { separator: "\n  " })}`);
  }
}
console.log(`${files.length - bad}/${files.length} SARIF logs valid`);
process.exit(bad ? 1 : 0);
