// SPDX-License-Identifier: Apache-2.0
// Cross-checks schemas/rig2d.schema.json (with ajv, JSON Schema 2020-12) against rig2d-validate on every
// rig of a JSON report: usage: node check_rig_schema.cjs SCHEMA REPORT NPM_DIR
//
// Agreement means: a file the schema rejects has rig2d-validate errors, and a file the schema accepts
// has no rig2d-validate error except ones JSON Schema cannot express (listed below, each a cross-file,
// uniqueness, count-relation or index-range rule).
"use strict";
const fs = require("fs");
const path = require("path");
const [schemaPath, reportPath, npmDir] = process.argv.slice(2);
const Ajv2020 = require(path.resolve(npmDir, "node_modules/ajv/dist/2020")).default;

const BEYOND_SCHEMA = new Set([
  "rig.bone.name.duplicate", "rig.bone.parent.range", "rig.bone.parent.cycle", "rig.part.name.duplicate",
  "rig.mesh.uvs.count", "rig.mesh.tris.count", "rig.mesh.tris.range", "rig.indices.count", "rig.indices.range",
  "rig.weights.count", "rig.weights.sum",
  "rig.sprite.unresolved", "rig.sprite.texture", "rig.sprite.not_sprite", "guid.duplicate",
]);

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, "utf8")));
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));
const rigs = report.files.filter((f) => f.kind === "rig");
let accepted = 0, rejected = 0, validateErrors = 0;
const problems = [];
for (const f of rigs) {
  let schemaOk = false;
  let why = "";
  try {
    schemaOk = validate(JSON.parse(fs.readFileSync(f.path, "utf8")));
    if (!schemaOk) why = ajv.errorsText(validate.errors, { separator: "; " });
  } catch (e) {
    why = "not JSON: " + e.message;  // JSON.parse failed: the schema cannot accept it
  }
  const errors = f.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
  // "$schema" is a known key for both (the docs tell users to add it).
  if (f.diagnostics.some((d) => d.pointer === "/$schema" && d.code === "rig.key.unknown")) {
    problems.push(`${f.path}: rig2d-validate calls "$schema" an unknown key`);
  }
  if (errors.length) validateErrors++;
  if (schemaOk) {
    accepted++;
    const unexplained = errors.filter((c) => !BEYOND_SCHEMA.has(c));
    if (unexplained.length) problems.push(`${f.path}: schema accepts, rig2d-validate reports ${unexplained.join(", ")}`);
  } else {
    rejected++;
    if (!errors.length) problems.push(`${f.path}: schema rejects (${why}), rig2d-validate finds no error`);
  }
}
console.log(`${rigs.length} rigs: schema accepts ${accepted}, rejects ${rejected}; rig2d-validate errors in ${validateErrors}`);
if (rigs.length < 40 || accepted < 10 || rejected < 20) problems.push("the corpus is too small for a meaningful cross-check");
for (const p of problems) console.log("DISAGREE: " + p);
process.exit(problems.length ? 1 : 0);
