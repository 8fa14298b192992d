package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.wire.ResultWrapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * Array components are resolved through {@link RememberingClassLoader}, once per name, but the allow-list still sees
 * every name read: a serializer that
 * does not trust a class refuses its arrays even after another serializer with a wider list cached the class.
 */
class RememberingClassLoaderTest {

    /** Not trusted by the strict default (a test class outside every trusted package). */
    static final class Point {
        int x;
        int y;
    }

    private static Point point(int x, int y) {
        Point p = new Point();
        p.x = x;
        p.y = y;
        return p;
    }

    private static ByteBuf written(Object result) {
        ResultWrapper wrapper = new ResultWrapper(result);
        ByteBuf buf = Unpooled.buffer();
        new ProtostuffSerializer(ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Point.class))
                .write(buf, wrapper);
        return buf;
    }

    @Test
    void anArrayReadTwiceHasItsComponentFromTheCacheAndTheSameValues() {
        ProtostuffSerializer trusting = new ProtostuffSerializer(
                ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Point.class));
        for (int i = 0; i < 2; i++) {
            ByteBuf buf = written(new Point[] {point(1, 2), point(3, i)});
            try {
                Object result = trusting.read(buf, ResultWrapper.class).getResult();
                assertThat(result).isInstanceOf(Point[].class);
                assertThat((Point[]) result).extracting(p -> p.y).containsExactly(2, i);
                assertThat(buf.isReadable()).isFalse();
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void theThreadsContextClassLoaderIsRestoredAfterEveryRead() {
        ProtostuffSerializer strict = new ProtostuffSerializer(ClassAllowList.create(ClassAllowList.Mode.STRICT));
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        ByteBuf good = written("fine");
        ByteBuf refused = written(new Point[] {point(1, 2)});
        try {
            assertThat(strict.read(good, ResultWrapper.class).getResult()).isEqualTo("fine");
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
            assertThatThrownBy(() -> strict.read(refused, ResultWrapper.class))
                    .isInstanceOf(ClassNotTrustedException.class);
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
        } finally {
            good.release();
            refused.release();
        }
    }

    @Test
    void aRememberedClassIsTheOneItsDelegateLoads() throws Exception {
        ClassLoader app = getClass().getClassLoader();
        RememberingClassLoader loader = RememberingClassLoader.over(app);

        assertThat(loader.loadClass(Point.class.getName())).isSameAs(Point.class);
        assertThat(loader.loadClass(Point.class.getName())).isSameAs(Point.class);
        assertThat(RememberingClassLoader.over(app)).isSameAs(loader);
        assertThatThrownBy(() -> loader.loadClass("no.such.Type")).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aCachedComponentIsStillCheckedAgainstEachSerializersAllowList() {
        ProtostuffSerializer trusting = new ProtostuffSerializer(
                ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Point.class));
        ProtostuffSerializer strict = new ProtostuffSerializer(ClassAllowList.create(ClassAllowList.Mode.STRICT));
        ByteBuf first = written(new Point[] {point(1, 2)});
        ByteBuf second = written(new Point[] {point(1, 2)});
        try {
            assertThat(trusting.read(first, ResultWrapper.class).getResult()).isInstanceOf(Point[].class);

            assertThatThrownBy(() -> strict.read(second, ResultWrapper.class))
                    .isInstanceOf(ClassNotTrustedException.class)
                    .hasMessageContaining(Point.class.getName());
        } finally {
            first.release();
            second.release();
        }
    }
}
