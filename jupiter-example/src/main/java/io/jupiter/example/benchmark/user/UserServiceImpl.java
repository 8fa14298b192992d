package io.jupiter.example.benchmark.user;

import io.jupiter.rpc.ServiceProviderImpl;

/** The benchmark provider: answers from fresh objects, no storage. */
@ServiceProviderImpl(version = "1.0.0")
public final class UserServiceImpl implements UserService {

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
}
