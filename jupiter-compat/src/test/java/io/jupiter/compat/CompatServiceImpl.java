package io.jupiter.compat;

import compat.model.Color;
import compat.model.CompatException;
import compat.model.User;
import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.testkit.OwnThreads;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/** The compat service served by us. */
@ServiceProviderImpl(version = "1.0.0")
public class CompatServiceImpl implements CompatService {

    @Override
    public boolean bool(boolean v) {
        return v;
    }

    @Override
    public Boolean boolW(Boolean v) {
        return v;
    }

    @Override
    public byte b(byte v) {
        return v;
    }

    @Override
    public Byte bW(Byte v) {
        return v;
    }

    @Override
    public char c(char v) {
        return v;
    }

    @Override
    public Character cW(Character v) {
        return v;
    }

    @Override
    public short s(short v) {
        return v;
    }

    @Override
    public Short sW(Short v) {
        return v;
    }

    @Override
    public int i(int v) {
        return v;
    }

    @Override
    public Integer iW(Integer v) {
        return v;
    }

    @Override
    public long l(long v) {
        return v;
    }

    @Override
    public Long lW(Long v) {
        return v;
    }

    @Override
    public float f(float v) {
        return v;
    }

    @Override
    public Float fW(Float v) {
        return v;
    }

    @Override
    public double d(double v) {
        return v;
    }

    @Override
    public Double dW(Double v) {
        return v;
    }

    @Override
    public String str(String v) {
        return v;
    }

    @Override
    public String unicode(String v) {
        return v;
    }

    @Override
    public String big(String v) {
        return v;
    }

    @Override
    public byte[] bytes(byte[] v) {
        return v;
    }

    @Override
    public int[] ints(int[] v) {
        return v;
    }

    @Override
    public long[] longs(long[] v) {
        return v;
    }

    @Override
    public String[] strings(String[] v) {
        return v;
    }

    @Override
    public Object[] objects(Object[] v) {
        return v;
    }

    @Override
    public List<String> list(List<String> v) {
        return v;
    }

    @Override
    public Set<Integer> set(Set<Integer> v) {
        return v;
    }

    @Override
    public Map<String, Integer> map(Map<String, Integer> v) {
        return v;
    }

    @Override
    public List<String> emptyList(List<String> v) {
        return v;
    }

    @Override
    public Color color(Color v) {
        return v;
    }

    @Override
    public User user(User v) {
        return v;
    }

    @Override
    public BigDecimal decimal(BigDecimal v) {
        return v;
    }

    @Override
    public BigInteger integer(BigInteger v) {
        return v;
    }

    @Override
    public Date date(Date v) {
        return v;
    }

    @Override
    public String noArgs() {
        return "no-args";
    }

    @Override
    public String three(String a, String b, String c) {
        return a + "|" + b + "|" + c;
    }

    @Override
    public String declared(String message) throws CompatException {
        throw new CompatException(message);
    }

    @Override
    public String unexpected(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public String slow(int millis) {
        try {
            Thread.sleep(millis); // the sleep is the point: it keeps a provider thread busy
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "slept";
    }

    @Override
    public CompletableFuture<String> later(String value) {
        return CompletableFuture.supplyAsync(() -> value, OwnThreads.EXECUTOR);
    }

    @Override
    public CompletableFuture<String> laterFails(String message) {
        return CompletableFuture.supplyAsync(() -> {
            throw new IllegalStateException(message);
        }, OwnThreads.EXECUTOR);
    }

    @Override
    public String attachments() {
        return new TreeMap<>(RpcContext.attachments()).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
    }
}
