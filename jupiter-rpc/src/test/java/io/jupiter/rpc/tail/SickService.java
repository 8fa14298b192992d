package io.jupiter.rpc.tail;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "test", name = "sick")
public interface SickService {

    /** The provider's name; throws an undeclared exception on the provider's failing share of calls. */
    String who();

    /** The provider's name; throws {@link NotFound}, which it declares, on the provider's failing share of calls. */
    String find() throws NotFound;

    /** A business outcome the method declares: an answer, not a failure of the provider. */
    class NotFound extends Exception {

        private static final long serialVersionUID = 1L;

        public NotFound(String message) {
            super(message);
        }
    }
}
