FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graph ./graph
COPY service ./service
COPY digest ./digest
COPY cypher ./cypher
COPY cognition ./cognition
RUN pip install --no-cache-dir '.[server]'
ENV COGNITION_HOST=0.0.0.0 COGNITION_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=6 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/healthz').status == 200 else 1)"
CMD ["cognition", "serve"]
