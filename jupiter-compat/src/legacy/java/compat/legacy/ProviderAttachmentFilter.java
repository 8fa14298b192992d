package compat.legacy;

import org.jupiter.common.util.SpiMetadata;
import org.jupiter.rpc.JFilter;
import org.jupiter.rpc.JFilterChain;
import org.jupiter.rpc.JFilterContext;
import org.jupiter.rpc.JRequest;

/**
 * A 1.3.1 provider filter (SPI): exposes the attachments of the request being served to the service method, which
 * runs on the same thread further down the chain.
 */
@SpiMetadata(name = "compatProviderAttachments", priority = 20)
public final class ProviderAttachmentFilter implements JFilter {

    @Override
    public Type getType() {
        return Type.PROVIDER;
    }

    @Override
    public <T extends JFilterContext> void doFilter(JRequest request, T context, JFilterChain next) throws Throwable {
        LegacyAttachments.SERVING.set(request.message().getAttachments());
        try {
            next.doFilter(request, context);
        } finally {
            LegacyAttachments.SERVING.remove();
        }
    }
}
