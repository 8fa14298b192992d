package io.jupiter.example.benchmark.user;

import io.jupiter.rpc.ServiceProviderImpl;

/** The benchmark provider: answers from fresh objects, no storage. */
@ServiceProviderImpl(version = "1.0.0")
public class UserServiceImpl implements UserService {

    @Override
    public boolean existUser(String email) {
        return Users.exists(email);
    }

    @Override
    public boolean createUser(User user) {
        return user != null && user.getName() != null;
    }

    @Override
    public User getUser(long id) {
        return Users.user(id, System.currentTimeMillis());
    }

    @Override
    public Page<User> listUser(int pageNo) {
        return Users.page(pageNo);
    }

    /** The same service, declared to never block: the provider runs it on its IO threads. */
    @io.jupiter.rpc.NonBlocking // fully-qualified: this nested class is named NonBlocking too
    public static final class NonBlocking extends UserServiceImpl {
    }
}
