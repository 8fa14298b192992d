package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.example.benchmark.user.Page;
import io.jupiter.example.benchmark.user.User;
import io.jupiter.example.benchmark.user.UserService;
import io.jupiter.example.benchmark.user.Users;
import java.util.Arrays;

/**
 * What {@code benchmark-client --scenario} calls: the original Jupiter benchmark's {@code hello}, or one of the four
 * calls of the multi-framework rpc-benchmark's {@link UserService}, which differ in request and response size.
 */
enum Scenario {

    /** {@code BenchmarkService.hello(payload)}: the payload both ways. */
    HELLO("hello") {
        @Override
        TargetClient target(BenchmarkProxies proxies, String payload) {
            return new ProxyCallTarget<BenchmarkService, String>(proxies.sync(BenchmarkService.class),
                    proxies.async(BenchmarkService.class), (service, n) -> service.hello(payload), (n, reply) -> {
                        if (reply.length() != payload.length()) {
                            throw new IllegalStateException("unexpected reply of " + reply.length() + " chars");
                        }
                    });
        }
    },

    /** A short numeric e-mail in, a boolean out: the framework's own overhead. */
    EXIST_USER("existUser") {
        @Override
        TargetClient target(BenchmarkProxies proxies, String payload) {
            // The e-mail is n's digits, so by the provider's rule (Users.exists) it exists when n is even.
            return users(proxies, (service, n) -> service.existUser(Integer.toString(n)), (n, reply) -> {
                if (reply != (n % 2 == 0)) {
                    throw new IllegalStateException("existUser(" + n + ") returned " + reply);
                }
            });
        }
    },

    /** A fresh {@link User} in, a boolean out: a large request. */
    CREATE_USER("createUser") {
        @Override
        TargetClient target(BenchmarkProxies proxies, String payload) {
            return users(proxies, (service, n) -> service.createUser(Users.user(n, System.currentTimeMillis())),
                    (n, reply) -> {
                        if (!reply) {
                            throw new IllegalStateException("createUser(" + n + ") returned false");
                        }
                    });
        }
    },

    /** An id in, one {@link User} out: a large response. */
    GET_USER("getUser") {
        @Override
        TargetClient target(BenchmarkProxies proxies, String payload) {
            return users(proxies, (service, n) -> service.getUser(n), (n, reply) -> {
                if (reply.getId() != n) {
                    throw new IllegalStateException("getUser(" + n + ") returned user " + reply.getId());
                }
            });
        }
    },

    /** A page number in, a {@link Page} of {@value Users#PAGE_SIZE} users out: a very large response. */
    LIST_USER("listUser") {
        @Override
        TargetClient target(BenchmarkProxies proxies, String payload) {
            return users(proxies, (service, n) -> service.listUser(n), (n, reply) -> {
                if (reply.getPageNo() != n || reply.getResult().size() != Users.PAGE_SIZE) {
                    throw new IllegalStateException("listUser(" + n + ") returned page " + reply.getPageNo()
                            + " with " + reply.getResult().size() + " users");
                }
            });
        }
    };

    private final String id;

    Scenario(String id) {
        this.id = id;
    }

    /** The name {@code --scenario} takes. */
    String id() {
        return id;
    }

    /** Builds this scenario's proxies; {@code payload} is only used by {@link #HELLO}. */
    abstract TargetClient target(BenchmarkProxies proxies, String payload);

    /** Every scenario's {@link #id()}, in declaration order. */
    static String[] ids() {
        return Arrays.stream(values()).map(Scenario::id).toArray(String[]::new);
    }

    /** The scenario named {@code id} (as checked by {@code Flags.oneOf} against {@link #ids()}). */
    static Scenario of(String id) {
        for (Scenario scenario : values()) {
            if (scenario.id.equals(id)) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("--scenario " + id + " (expected: " + String.join("|", ids()) + ")");
    }

    private static <R> TargetClient users(BenchmarkProxies proxies, ProxyCallTarget.Call<UserService, R> call,
                                        ProxyCallTarget.Check<R> check) {
        return new ProxyCallTarget<>(proxies.sync(UserService.class), proxies.async(UserService.class), call, check);
    }
}
