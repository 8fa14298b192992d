package compat.legacy;

import java.util.Map;
import org.jupiter.common.util.SpiMetadata;
import org.jupiter.rpc.JFilter;
import org.jupiter.rpc.JFilterChain;
import org.jupiter.rpc.JFilterContext;
import org.jupiter.rpc.JRequest;

/**
 * A 1.3.1 consumer filter (SPI {@code META-INF/services/org.jupiter.rpc.JFilter}): puts the calling thread's
 * {@link LegacyAttachments#OUTGOING} into the request before it is serialized.
 */
@SpiMetadata(name = "compatConsumerAttachments", priority = 20)
public final class ConsumerAttachmentFilter implements JFilter {

    @Override
    public Type getType() {
        return Type.CONSUMER;
    }

    @Override
    public <T extends JFilterContext> void doFilter(JRequest request, T context, JFilterChain next) throws Throwable {
        Map<String, String> outgoing = LegacyAttachments.OUTGOING.get();
        if (outgoing != null) {
            for (Map.Entry<String, String> e : outgoing.entrySet()) {
                request.putAttachment(e.getKey(), e.getValue());
            }
        }
        next.doFilter(request, context);
    }
}
