package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.spring.boot.JupiterReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Server streams between two Spring contexts: a provider bean whose method returns a {@link Flow.Publisher}, and a
 * {@link JupiterReference} proxy of it in another context, read blocking and through {@link Flow}.
 */
class StreamReferenceTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JupiterAutoConfiguration.class))
            .withPropertyValues("jupiter.server.host=127.0.0.1", "jupiter.server.port=0",
                    "jupiter.server.shutdown-timeout=5s");

    @Configuration(proxyBeanMethods = false)
    static class Provider {
        @Bean
        PriceFeedImpl priceFeedImpl() {
            return new PriceFeedImpl();
        }
    }

    /** A consumer bean holding the stream proxy. */
    static class Ticker {

        @JupiterReference(address = "${prices.address:}", timeoutMillis = 10_000)
        PriceFeed feed;
    }

    @Configuration(proxyBeanMethods = false)
    static class Consumer {
        @Bean
        Ticker ticker() {
            return new Ticker();
        }
    }

    @Test
    void aReferenceProxyReadsAProvidersStreamBlockingAndThroughFlow() {
        runner.withUserConfiguration(Provider.class).run(provider -> {
            assertThat(provider).hasNotFailed();
            int port = provider.getBean(JupiterServer.class).localAddress().getPort();
            runner.withUserConfiguration(Consumer.class)
                    .withPropertyValues("prices.address=127.0.0.1:" + port)
                    .run(consumer -> {
                        assertThat(consumer).hasNotFailed();
                        PriceFeed feed = consumer.getBean(Ticker.class).feed;

                        try (StreamIterator<String> it = Streams.iterate(feed.prices("ACME", 500), 8)) {
                            List<String> got = new ArrayList<>();
                            it.forEachRemaining(got::add);
                            assertThat(got).containsExactlyElementsOf(
                                    IntStream.range(0, 500).mapToObj(i -> "ACME " + i).toList());
                        }

                        List<String> viaFlow = new ArrayList<>();
                        CompletableFuture<Void> done = new CompletableFuture<>();
                        feed.prices("INIT", 3).subscribe(new Flow.Subscriber<>() {
                            @Override
                            public void onSubscribe(Flow.Subscription subscription) {
                                subscription.request(Long.MAX_VALUE);
                            }

                            @Override
                            public void onNext(String item) {
                                viaFlow.add(item);
                            }

                            @Override
                            public void onError(Throwable error) {
                                done.completeExceptionally(error);
                            }

                            @Override
                            public void onComplete() {
                                done.complete(null);
                            }
                        });
                        done.get(10, TimeUnit.SECONDS);
                        assertThat(viaFlow).containsExactly("INIT 0", "INIT 1", "INIT 2");
                    });
        });
    }
}
