"""Player history and group leaderboards, from database aggregates over seat results (issue 11)."""
