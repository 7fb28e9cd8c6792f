"""The HTTP adapter: the FastAPI app (app.py), its routes (routes/), the central guard (deps.py), the direct single
save (direct.py), middleware, the offline API docs and the Neo4j Browser guide."""
