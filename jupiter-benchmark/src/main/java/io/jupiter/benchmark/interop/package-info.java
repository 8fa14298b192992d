/**
 * Targets of the load driver that cross protocols: gRPC-java's client against a Jupiter provider serving gRPC
 * ({@link io.jupiter.benchmark.interop.GrpcOnJupiterTarget}, the driver's {@code grpc-on-jupiter}).
 */
package io.jupiter.benchmark.interop;
