package io.jupiter.example.benchmark.user;

import java.io.Serializable;
import java.util.Date;
import java.util.List;
import java.util.Objects;

/**
 * The rpc-benchmark's user: twelve fields of the kinds a real entity has (numbers, short and long strings, a
 * date, two timestamps and a list). A mutable bean, because every serializer (hessian and protostuff in particular)
 * reads fields into an instance it created itself.
 *
 * <p>The original declares {@code LocalDate birthday} and {@code LocalDateTime createTime, updateTime}. Here they are
 * {@code java.util.Date}: Hessian 4.0.66 serializes {@code java.time} values by reflecting on their private fields,
 * which JDK 17 refuses ({@code module java.base does not "opens java.time"}), so a {@code java.time} field would
 * make every user call fail with {@code --serializer hessian}. Protostuff, kryo and java carry {@code java.time} fine;
 * {@code Date} works with all four and, like {@code java.time}, is trusted by the class allow-list without
 * configuration. The timestamps keep millisecond precision, and a {@code Date} makes a User some bytes smaller than
 * the original's on the wire.
 */
public final class User implements Serializable {

    private static final long serialVersionUID = 1L;

    private long id;
    private String name;
    private int sex;
    private Date birthday;
    private String email;
    private String mobile;
    private String address;
    private String icon;
    private List<Integer> permissions;
    private int status;
    private Date createTime;
    private Date updateTime;

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getSex() {
        return sex;
    }

    public void setSex(int sex) {
        this.sex = sex;
    }

    public Date getBirthday() {
        return birthday;
    }

    public void setBirthday(Date birthday) {
        this.birthday = birthday;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }

    public String getMobile() {
        return mobile;
    }

    public void setMobile(String mobile) {
        this.mobile = mobile;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getIcon() {
        return icon;
    }

    public void setIcon(String icon) {
        this.icon = icon;
    }

    public List<Integer> getPermissions() {
        return permissions;
    }

    public void setPermissions(List<Integer> permissions) {
        this.permissions = permissions;
    }

    public int getStatus() {
        return status;
    }

    public void setStatus(int status) {
        this.status = status;
    }

    public Date getCreateTime() {
        return createTime;
    }

    public void setCreateTime(Date createTime) {
        this.createTime = createTime;
    }

    public Date getUpdateTime() {
        return updateTime;
    }

    public void setUpdateTime(Date updateTime) {
        this.updateTime = updateTime;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof User)) {
            return false;
        }
        User other = (User) o;
        return id == other.id && sex == other.sex && status == other.status && Objects.equals(name, other.name)
                && Objects.equals(birthday, other.birthday) && Objects.equals(email, other.email)
                && Objects.equals(mobile, other.mobile) && Objects.equals(address, other.address)
                && Objects.equals(icon, other.icon) && Objects.equals(permissions, other.permissions)
                && Objects.equals(createTime, other.createTime) && Objects.equals(updateTime, other.updateTime);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, sex, birthday, email, mobile, address, icon, permissions, status, createTime,
                updateTime);
    }

    @Override
    public String toString() {
        return "User{id=" + id + ", name=" + name + ", sex=" + sex + ", birthday=" + birthday + ", email=" + email
                + ", mobile=" + mobile + ", address=" + address + ", icon=" + icon + ", permissions=" + permissions
                + ", status=" + status + ", createTime=" + createTime + ", updateTime=" + updateTime + '}';
    }
}
