package io.jupiter.compat;

import compat.model.Color;
import compat.model.CompatException;
import compat.model.User;
import io.jupiter.rpc.ServiceProvider;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The compat service as our user declares it: the same methods as the 1.3.1 one. Group "compat", name "compat"; every
 * value method returns its argument.
 */
@ServiceProvider(group = "compat", name = "compat")
public interface CompatService {

    boolean bool(boolean v);

    Boolean boolW(Boolean v);

    byte b(byte v);

    Byte bW(Byte v);

    char c(char v);

    Character cW(Character v);

    short s(short v);

    Short sW(Short v);

    int i(int v);

    Integer iW(Integer v);

    long l(long v);

    Long lW(Long v);

    float f(float v);

    Float fW(Float v);

    double d(double v);

    Double dW(Double v);

    String str(String v);

    String unicode(String v);

    String big(String v);

    byte[] bytes(byte[] v);

    int[] ints(int[] v);

    long[] longs(long[] v);

    String[] strings(String[] v);

    Object[] objects(Object[] v);

    List<String> list(List<String> v);

    Set<Integer> set(Set<Integer> v);

    Map<String, Integer> map(Map<String, Integer> v);

    List<String> emptyList(List<String> v);

    Color color(Color v);

    User user(User v);

    BigDecimal decimal(BigDecimal v);

    BigInteger integer(BigInteger v);

    Date date(Date v);

    /** No arguments. */
    String noArgs();

    /** Shows where nulls arrive: {@code a|b|c}. */
    String three(String a, String b, String c);

    /** Throws the declared {@link CompatException} with {@code message}. */
    String declared(String message) throws CompatException;

    /** Throws an undeclared {@code IllegalStateException} with {@code message}. */
    String unexpected(String message);

    /** Sleeps {@code millis}, then returns {@code "slept"}. */
    String slow(int millis);

    /** Completes later with {@code value}. */
    CompletableFuture<String> later(String value);

    /** Completes later, exceptionally, with an {@code IllegalStateException}. */
    CompletableFuture<String> laterFails(String message);

    /** The attachments of this request as {@code k=v;k=v}, sorted by key. */
    String attachments();
}
