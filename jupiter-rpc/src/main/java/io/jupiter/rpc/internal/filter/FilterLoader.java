package io.jupiter.rpc.internal.filter;

import io.jupiter.rpc.filter.Filter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The filters listed in {@code META-INF/services/io.jupiter.rpc.filter.Filter}, loaded once per class loader. */
final class FilterLoader {

    private FilterLoader() {
    }

    static List<Filter> filters() {
        return Loaded.FILTERS;
    }

    private static final class Loaded {
        static final List<Filter> FILTERS = load();

        private static List<Filter> load() {
            List<Filter> found = new ArrayList<>();
            for (Filter filter : ServiceLoader.load(Filter.class, FilterLoader.class.getClassLoader())) {
                found.add(filter);
            }
            // A stable order for filters of equal priority, whatever the class path order.
            found.sort(Comparator.comparing(f -> f.getClass().getName()));
            return List.copyOf(found);
        }
    }
}
