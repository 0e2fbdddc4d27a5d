# syntax=docker/dockerfile:1
# The taskplatform image: one static binary that runs `api`, `worker`,
# `migrate` or `admin …` (see docker-compose.temporal.yml).

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# The Go SDK's modules, which go.mod replaces with their folders.
COPY client/go.mod client/go.sum client/
COPY contract/go.mod contract/
COPY signer/go.mod signer/go.sum signer/
COPY wire/go.mod wire/
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -buildvcs=false -trimpath -ldflags="-s -w" -o /out/taskplatform ./cmd/taskplatform \
 && mkdir -p /out/data

# Static binary, CA certificates (webhooks, URL fetches), no shell, not root.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/taskplatform /usr/local/bin/taskplatform
# /data holds local blobs; a named volume mounted here inherits this owner.
COPY --from=build --chown=65532:65532 /out/data /data
ENV TP_DATA_DIR=/data \
    TP_HTTP_ADDR=0.0.0.0:8080 \
    TP_METRICS_ADDR=0.0.0.0:9464
WORKDIR /data
USER 65532:65532
EXPOSE 8080 9464
ENTRYPOINT ["/usr/local/bin/taskplatform"]
CMD ["api"]
