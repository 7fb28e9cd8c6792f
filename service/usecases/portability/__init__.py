"""Take your memory with you: scope export (`export`), import (`importer`), the file format (`format`) and
importers from peer systems (`peers`)."""
