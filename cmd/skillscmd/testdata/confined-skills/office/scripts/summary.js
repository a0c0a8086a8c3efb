const fs = require("fs"), path = require("path");
function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}
const files = walk(process.env.SKILL_ARG_INPUT).sort();
const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
console.log(JSON.stringify({ files: files.map((f) => path.relative(process.env.SKILL_ARG_INPUT, f)), bytes }));
