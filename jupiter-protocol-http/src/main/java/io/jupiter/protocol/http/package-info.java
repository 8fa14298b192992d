/**
 * HTTP/JSON and gRPC beside the 1.3.1 protocol on a provider's port ({@link io.jupiter.protocol.http.HttpProtocols}):
 * each request becomes the request frame a 1.3.1 consumer would send, through the same provider chain, and each
 * response frame becomes the HTTP or gRPC answer. What is and is not supported: docs/protocols.md.
 */
package io.jupiter.protocol.http;
