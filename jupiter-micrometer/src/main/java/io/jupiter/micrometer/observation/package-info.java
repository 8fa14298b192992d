/**
 * Micrometer Observation for Jupiter calls: {@link io.jupiter.micrometer.observation.RpcObservationFilter} opens one
 * observation per client call and per served request, named and keyed by the conventions documented in
 * {@link io.jupiter.micrometer.observation.RpcObservationDocumentation} (OpenTelemetry's RPC semantic conventions),
 * and carries the trace context in the request's attachments.
 */
package io.jupiter.micrometer.observation;
