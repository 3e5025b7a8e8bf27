// The engine in the phone, in a worker so that starting it never blocks the page: Pyodide running `scoring`
// itself (the zip the server builds from the package's source), answering with scoring.preview's functions,
// the very ones behind POST /api/nights/{id}/preview/ and /api/analyse/.
let engine = null;

async function start(setup) {
  const { loadPyodide } = await import(setup.pyodide);
  const pyodide = await loadPyodide({ indexURL: setup.indexURL, packages: [] });
  const zip = await fetch(setup.zip);
  if (!zip.ok) throw new Error(`${setup.zip}: ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine'); from scoring.preview import preview_json, analysis_json");
  return { preview: pyodide.globals.get("preview_json"), analysis: pyodide.globals.get("analysis_json") };
}

self.addEventListener("message", async (event) => {
  const { id, op, setup, request } = event.data;
  try {
    if (op === "start") {
      const began = performance.now();
      engine = engine || await start(setup);
      self.postMessage({ id, ok: true, answer: { ms: performance.now() - began } });
    } else {
      // Strings cross the boundary (no proxies to free): JSON in, JSON out.
      self.postMessage({ id, ok: true, answer: JSON.parse(engine[op](JSON.stringify(request))) });
    }
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message || error) });
  }
});
