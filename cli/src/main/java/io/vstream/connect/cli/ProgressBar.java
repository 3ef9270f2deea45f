package io.vstream.connect.cli;

import java.util.Locale;

/** Renders a fraction as a fixed-width ASCII bar with its percentage: {@code [##########----------]  50%}. */
public final class ProgressBar {
    private final int width;

    public ProgressBar(int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be positive");
        }
        this.width = width;
    }

    /** {@code fraction} in [0, 1] (clamped); null renders an empty bar and {@code -} for the percentage. */
    public String render(Double fraction) {
        StringBuilder sb = new StringBuilder(width + 8).append('[');
        if (fraction == null || fraction.isNaN()) {
            sb.append(".".repeat(width)).append("]    -");
            return sb.toString();
        }
        double f = Math.max(0, Math.min(1, fraction));
        int full = (int) Math.floor(f * width);
        sb.append("#".repeat(full)).append("-".repeat(width - full)).append(']');
        sb.append(String.format(Locale.ROOT, " %3d%%", (int) Math.floor(f * 100)));
        return sb.toString();
    }
}
