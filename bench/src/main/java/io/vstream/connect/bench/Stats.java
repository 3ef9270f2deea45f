package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Median, minimum and maximum of a few measurements. Touches nothing. */
record Stats(double median, double min, double max, int count) {
    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
    }
}
