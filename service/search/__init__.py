"""Search: the per-scope in-process index (scope_index.py) with its BM25 (lexical.py), the hybrid ranking and
its Cypher parameters (ranking.py), and the embedders (embedding.py)."""
