package io.jupiter.example.benchmark.user;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.SerializerType;
import java.util.ArrayList;
import java.util.Date;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rpc-benchmark's user calls through a real server and client on 127.0.0.1, with every serializer: each of the
 * 15 users of a page, and each of their 12 fields, arrives as the provider built it, and a created user arrives at
 * the provider as the consumer built it.
 */
class UserServiceRoundTripTest {

    private static final CapturingUserService provider = new CapturingUserService();

    @RegisterExtension
    static final JupiterServerExtension server = JupiterServerExtension.builder()
            .service(provider)
            .tcp()
            .server(b -> b.serializers(SerializerType.values()))
            .client(b -> b.appName("user-round-trip"))
            .build();

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void aPageOfFifteenUsersArrivesWithEveryField(SerializerType serializer) {
        UserService users = proxy(serializer);
        long before = System.currentTimeMillis();
        Page<User> page = users.listUser(7);
        long after = System.currentTimeMillis();

        assertThat(page.getPageNo()).isEqualTo(7);
        assertThat(page.getTotal()).isEqualTo(Users.TOTAL);
        assertThat(page.getResult()).hasSize(Users.PAGE_SIZE);
        for (int i = 0; i < Users.PAGE_SIZE; i++) {
            User user = page.getResult().get(i);
            // The provider stamps the time of the call; every other field follows from the id.
            long created = user.getCreateTime().getTime();
            assertThat(created).isBetween(before, after);
            assertThat(user).isEqualTo(Users.user(7L * Users.PAGE_SIZE + i, created));
            // equals covers all 12 fields; spot-check the ones a serializer is most likely to mangle.
            assertThat(user.getUpdateTime()).isEqualTo(new Date(created));
            assertThat(user.getBirthday()).isEqualTo(new Date(Users.BIRTHDAY_MILLIS));
            assertThat(user.getAddress()).isEqualTo(Users.user(0, 0).getAddress()).contains("上海市");
            assertThat(user.getPermissions()).hasSize(Users.PERMISSIONS).containsExactlyElementsOf(
                    Users.user(0, 0).getPermissions());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void theOtherThreeCallsRoundTrip(SerializerType serializer) {
        UserService users = proxy(serializer);
        assertThat(users.existUser("1234")).isTrue();
        assertThat(users.existUser("1235")).isFalse();
        User created = Users.user(42, System.currentTimeMillis());
        assertThat(users.createUser(created)).isTrue();
        assertThat(provider.lastCreated.get()).isEqualTo(created).isNotSameAs(created);
        User user = users.getUser(Long.MAX_VALUE);
        assertThat(user).isEqualTo(Users.user(Long.MAX_VALUE, user.getCreateTime().getTime()));
    }

    @Test
    void theServiceTypesPassAStrictAllowListWithNoConfiguration() {
        ClassAllowList allowList = ClassAllowList.create(ClassAllowList.Mode.STRICT).trustTypesOf(UserService.class);
        for (Class<?> type : new Class<?>[] {User.class, Page.class, Date.class, ArrayList.class,
                Integer.class}) {
            assertThat(allowList.isTrusted(type.getName())).as(type.getName()).isTrue();
        }
    }

    /** The real provider, remembering the last user it was asked to create. */
    @ServiceProviderImpl(version = "1.0.0")
    static final class CapturingUserService implements UserService {
        private final UserService delegate = new UserServiceImpl();
        final AtomicReference<User> lastCreated = new AtomicReference<>();

        @Override
        public boolean existUser(String email) {
            return delegate.existUser(email);
        }

        @Override
        public boolean createUser(User user) {
            lastCreated.set(user);
            return delegate.createUser(user);
        }

        @Override
        public User getUser(long id) {
            return delegate.getUser(id);
        }

        @Override
        public Page<User> listUser(int pageNo) {
            return delegate.listUser(pageNo);
        }
    }

    private static UserService proxy(SerializerType serializer) {
        return server.proxy(UserService.class).serializer(serializer).build();
    }
}
