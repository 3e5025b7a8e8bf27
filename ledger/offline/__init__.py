"""The app offline (issue 20): the service worker, the engine in the phone (Pyodide and the `scoring` package as a
zip built from its source), and the page that says something needs the network."""
