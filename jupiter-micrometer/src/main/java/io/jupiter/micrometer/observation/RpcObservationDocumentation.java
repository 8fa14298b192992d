package io.jupiter.micrometer.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of a Jupiter call (and of a stream: {@link #CLIENT_STREAM}, {@link #SERVER_STREAM}), their names
 * and their key values, after OpenTelemetry's semantic conventions for RPC (semconv 1.40.0, where RPC is a release
 * candidate), plus the keys of semconv 1.37.0 that dashboards of that time use ({@code rpc.system},
 * {@code rpc.service}) and Jupiter's own under {@code rpc.jupiter.*}. The observation's name is the timer's name:
 * {@value #CLIENT_NAME} and {@value #SERVER_NAME}, in seconds ({@code rpc_client_call_duration_seconds} in
 * Prometheus); a stream's are {@value #CLIENT_STREAM_NAME} and {@value #SERVER_STREAM_NAME}. The span name is
 * {@code {service}/{method}}.
 */
public enum RpcObservationDocumentation implements ObservationDocumentation {

    /** A call a client proxy makes: span kind CLIENT. */
    CLIENT {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultRpcClientObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return new KeyName[] {HighCardinalityKeyNames.SERVER_ADDRESS, HighCardinalityKeyNames.SERVER_PORT,
                    HighCardinalityKeyNames.INVOKE_ID, HighCardinalityKeyNames.ERROR_TYPE};
        }
    },

    /** A request a server serves: span kind SERVER. */
    SERVER {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultRpcServerObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return new KeyName[] {HighCardinalityKeyNames.PEER_ADDRESS, HighCardinalityKeyNames.PEER_PORT,
                    HighCardinalityKeyNames.INVOKE_ID, HighCardinalityKeyNames.APP, HighCardinalityKeyNames.ERROR_TYPE};
        }
    },

    /**
     * A stream a client opens, from its open to its end: span kind CLIENT, the keys of {@link #CLIENT}; the trace
     * context travels in the open frame's attachments.
     */
    CLIENT_STREAM {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultRpcClientStreamObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return CLIENT.getHighCardinalityKeyNames();
        }
    },

    /** A stream a server serves, from its admission to its end: span kind SERVER, the keys of {@link #SERVER}. */
    SERVER_STREAM {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultRpcServerStreamObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return SERVER.getHighCardinalityKeyNames();
        }
    };

    /** Name of the client observation, its timer and its span's metric counterpart (semconv 1.40.0). */
    public static final String CLIENT_NAME = "rpc.client.call.duration";
    /** Name of the server observation and its timer (semconv 1.40.0). */
    public static final String SERVER_NAME = "rpc.server.call.duration";
    /**
     * Name of a client stream's observation and its timer (Jupiter's: OpenTelemetry's call duration excludes
     * streams).
     */
    public static final String CLIENT_STREAM_NAME = "rpc.jupiter.client.stream";
    /** Name of a served stream's observation and its timer. */
    public static final String SERVER_STREAM_NAME = "rpc.jupiter.server.stream";
    /** The value of {@code rpc.system.name} and {@code rpc.system}. */
    public static final String SYSTEM = "jupiter";

    /** Keys on every observation, hence tags of the timers too: a bounded set of values each. */
    public enum LowCardinalityKeyNames implements KeyName {

        /** {@code jupiter} (semconv 1.40.0). */
        RPC_SYSTEM_NAME {
            @Override
            public String asString() {
                return "rpc.system.name";
            }
        },

        /** {@code jupiter}: the semconv 1.37.0 name of {@link #RPC_SYSTEM_NAME}, kept for one release. */
        RPC_SYSTEM {
            @Override
            public String asString() {
                return "rpc.system";
            }
        },

        /** The service name, e.g. {@code greeter} (semconv 1.37.0; 1.40.0 folds it into {@link #RPC_METHOD}). */
        RPC_SERVICE {
            @Override
            public String asString() {
                return "rpc.service";
            }
        },

        /** {@code {service}/{method}}, e.g. {@code greeter/greet} (semconv 1.40.0). */
        RPC_METHOD {
            @Override
            public String asString() {
                return "rpc.method";
            }
        },

        /**
         * The Jupiter status the call ended with ({@code OK}, {@code SERVER_BUSY}, {@code CLIENT_TIMEOUT}, ...;
         * {@code UNKNOWN} while it runs), semconv 1.40.0's {@code rpc.response.status_code}.
         */
        STATUS {
            @Override
            public String asString() {
                return "rpc.response.status_code";
            }
        },

        /** {@code consumer} or {@code provider}, as the {@code side} tag of Jupiter's other meters. */
        SIDE {
            @Override
            public String asString() {
                return "rpc.jupiter.side";
            }
        },

        /** The service group. */
        GROUP {
            @Override
            public String asString() {
                return "rpc.jupiter.group";
            }
        },

        /** The service version. */
        VERSION {
            @Override
            public String asString() {
                return "rpc.jupiter.version";
            }
        }
    }

    /** Keys on spans only (they would make a time series per value): set when known. */
    public enum HighCardinalityKeyNames implements KeyName {

        /** Client: the provider's host (semconv {@code server.address}). */
        SERVER_ADDRESS {
            @Override
            public String asString() {
                return "server.address";
            }
        },

        /** Client: the provider's port (semconv {@code server.port}). */
        SERVER_PORT {
            @Override
            public String asString() {
                return "server.port";
            }
        },

        /** Server: the consumer's address (semconv {@code network.peer.address}). */
        PEER_ADDRESS {
            @Override
            public String asString() {
                return "network.peer.address";
            }
        },

        /** Server: the consumer's port (semconv {@code network.peer.port}). */
        PEER_PORT {
            @Override
            public String asString() {
                return "network.peer.port";
            }
        },

        /** The request's invoke id on the wire (unique per connection). */
        INVOKE_ID {
            @Override
            public String asString() {
                return "rpc.jupiter.invoke_id";
            }
        },

        /** Server: the consumer's application name. */
        APP {
            @Override
            public String asString() {
                return "rpc.jupiter.app";
            }
        },

        /**
         * A failed call's status (semconv {@code error.type}); absent on success. A span attribute only: the timers'
         * tags must be the same on every call, and {@code rpc.response.status_code} already tells failures apart.
         */
        ERROR_TYPE {
            @Override
            public String asString() {
                return "error.type";
            }
        }
    }
}
