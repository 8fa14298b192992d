package io.jupiter.example.benchmark.user;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * Builds the benchmark's users and pages, always fresh objects (as the original rpc-benchmark does), so each call
 * pays for serializing a real object graph while the business logic costs next to nothing.
 */
public final class Users {

    /** Users per page of {@link UserService#listUser}. */
    public static final int PAGE_SIZE = 15;
    /** The total number of users a page claims. */
    public static final int TOTAL = 1_500;
    /** Permissions per user. */
    public static final int PERMISSIONS = 15;
    /** Every user's birthday, midnight UTC. */
    public static final long BIRTHDAY_MILLIS = LocalDate.of(1906, 12, 9).atStartOfDay(ZoneOffset.UTC).toInstant()
            .toEpochMilli();

    private Users() {
    }

    /**
     * A user with this id, created and last updated at {@code nowMillis}. As in the original, both timestamps are one
     * object, and each user has objects of its own.
     */
    public static User user(long id, long nowMillis) {
        User user = new User();
        user.setId(id);
        user.setName("Grace Hopper");
        user.setSex(2);
        user.setBirthday(new Date(BIRTHDAY_MILLIS));
        user.setEmail("grace.hopper@example.com");
        user.setMobile("13800138000");
        // Non-ASCII text on purpose: multi-byte UTF-8 is part of what a real entity costs to serialize.
        user.setAddress("上海市浦东新区世纪大道100号 环球金融中心 88层 8801室");
        user.setIcon("https://static.example.com/avatars/grace-hopper-128x128.png");
        List<Integer> permissions = new ArrayList<>(PERMISSIONS);
        for (int i = 0; i < PERMISSIONS; i++) {
            permissions.add(i * 7 + 1);
        }
        user.setPermissions(permissions);
        user.setStatus(1);
        Date now = new Date(nowMillis);
        user.setCreateTime(now);
        user.setUpdateTime(now);
        return user;
    }

    /** Page {@code pageNo}: {@value #PAGE_SIZE} users with ids following from the page number. */
    public static Page<User> page(int pageNo) {
        long now = System.currentTimeMillis();
        List<User> users = new ArrayList<>(PAGE_SIZE);
        long firstId = (long) pageNo * PAGE_SIZE;
        for (int i = 0; i < PAGE_SIZE; i++) {
            users.add(user(firstId + i, now));
        }
        Page<User> page = new Page<>();
        page.setPageNo(pageNo);
        page.setTotal(TOTAL);
        page.setResult(users);
        return page;
    }

    /** Whether a user with this e-mail exists: by this benchmark's rule, those ending in an even digit do. */
    public static boolean exists(String email) {
        if (email == null || email.isEmpty()) {
            return false;
        }
        char last = email.charAt(email.length() - 1);
        return last >= '0' && last <= '9' && (last - '0') % 2 == 0;
    }
}
