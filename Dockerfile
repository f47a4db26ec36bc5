# firestep service image. The app migrates its database at start (firestep serve).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# WeasyPrint needs Pango for PDF playsheets.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /srv/firestep
COPY pyproject.toml setup.py README.md alembic.ini ./
COPY app ./app
COPY rules ./rules
COPY playsheets ./playsheets
COPY frontend ./frontend
COPY migrations ./migrations
# The build's version: setup.py counts the repository's commits, and the image is built without .git, so it is
# given (docker compose: FIRESTEP_VERSION=0.1.$(git rev-list --count HEAD) docker compose up --build).
ARG FIRESTEP_VERSION=0.1.0
RUN SETUPTOOLS_SCM_PRETEND_VERSION_FOR_FIRESTEP=$FIRESTEP_VERSION pip install --no-cache-dir . && useradd --system --home /srv/firestep firestep \
 && mkdir -p /srv/firestep/var && chown firestep /srv/firestep/var
USER firestep

ENV FIRESTEP_HOST=0.0.0.0 FIRESTEP_PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
CMD ["firestep", "serve"]
