package io.jupiter.example.benchmark.user;

import io.jupiter.rpc.ServiceProvider;

/**
 * The four calls of the multi-framework rpc-benchmark (group "test", name "userService", version 1.0.0), chosen for
 * their request and response sizes: small/small ({@link #existUser}), large/small ({@link #createUser}),
 * small/large ({@link #getUser}) and small/very large ({@link #listUser}).
 */
@ServiceProvider(group = "test", name = "userService")
public interface UserService {

    /** Whether a user with this e-mail exists (a short string in, a boolean out). */
    boolean existUser(String email);

    /** Stores a user (one {@link User} in, a boolean out). */
    boolean createUser(User user);

    /** The user with this id (a long in, one {@link User} out). */
    User getUser(long id);

    /** Page {@code pageNo} of the users (an int in, {@value Users#PAGE_SIZE} users out). */
    Page<User> listUser(int pageNo);
}
