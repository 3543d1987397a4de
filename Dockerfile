# Potluck: the server, the web client and the rules pages in one slim image.
# docker build -t potluck . && docker run -p 8000:8000 -v potluck-data:/data potluck
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite:////data/potluck.db

RUN useradd --create-home --uid 10001 potluck \
    && mkdir /data && chown potluck /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY server ./server
COPY web ./web
COPY docs ./docs
COPY migrations ./migrations
RUN pip install .

USER potluck
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["potluck", "serve", "--host", "0.0.0.0", "--port", "8000"]
