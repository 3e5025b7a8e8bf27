"""Live pages: what happened to a night (events), who may listen (consumers), and the page fragments."""
