"""The HTTP routes, one module per resource; service/http/app.py includes them."""
