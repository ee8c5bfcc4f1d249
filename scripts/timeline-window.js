// Draws a window of a `heddle run --timeline FILE.html` page as SVG, without
// a browser: runs the page's script under Node with a stub document, sets the
// window, and writes what the page would show. To look at a zoomed window:
//
//   node scripts/timeline-window.js page.html 12000 12120 window.svg
//   rsvg-convert window.svg -o window.png
const fs = require("fs"), vm = require("vm");
const [page, from, to, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node scripts/timeline-window.js PAGE.html FROM TO OUT.svg");
  process.exit(2);
}
const html = fs.readFileSync(page, "utf8");
const js = html.slice(html.indexOf("<script>") + 8, html.lastIndexOf("</script>"));
const el = () => ({ innerHTML: "", textContent: "", style: {}, addEventListener() {}, firstChild: { getBoundingClientRect: () => ({ left: 0, top: 0 }) } });
const els = {};
const ctx = { document: { getElementById: id => (els[id] = els[id] || el()) }, window: { addEventListener() {} }, Math, String, Array, Float64Array, console };
vm.createContext(ctx);
vm.runInContext(js + `\nsetWindow(${Number(from)}, ${Number(to)});`, ctx);
fs.writeFileSync(out, els.view.innerHTML);
