"""ledger.web: see README.md, "Where things are"."""
