# rulesengine serve in a container: the HTTP service and its playground on port 8000.
#   docker build -t rulesengine . && docker run -p 8000:8000 rulesengine
# Your own rulesets: docker run -p 8000:8000 -v "$PWD/my-rulesets:/rulesets:ro" rulesengine \
#   rulesengine serve --host 0.0.0.0 --port 8000 --rulesets /rulesets
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY rulesengine ./rulesengine
COPY rulesets ./rulesets
COPY schemas ./schemas
COPY docs ./docs
RUN pip install --no-cache-dir ".[serve]" && useradd --system --no-create-home rulesengine
USER rulesengine
EXPOSE 8000
CMD ["rulesengine", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
