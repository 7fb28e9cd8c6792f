"""Pure-Python digest logic: negation detection and retention scoring."""
