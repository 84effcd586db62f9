package io.agni.bench.net.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws the report's charts as inline SVG text, so that the HTML report needs no script, font or file from anywhere:
 * line charts (linear or logarithmic y axis, numeric or named x positions) and grouped bar charts, with axes, ticks,
 * a legend and a {@code <title>} on every mark for the exact value on hover.
 *
 * <h2>Threads</h2>
 * Static methods; any thread.
 */
final class SvgChart
{
    /**
     * Colours for targets, in order.
     */
    static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf"};

    private static final int WIDTH = 760;
    private static final int HEIGHT = 320;
    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 34;
    private static final int BOTTOM = 46;
    private static final int MAX_MARKED_POINTS = 60;

    /**
     * One line of a line chart.
     *
     * @param name    its name in the legend and tooltips.
     * @param color   its colour.
     * @param x       x values (for named x positions: 0, 1, 2, ...).
     * @param y       y values; NaN leaves a gap.
     * @param width   stroke width.
     * @param opacity stroke opacity.
     * @param legend  whether it appears in the legend.
     * @param dash    an SVG {@code stroke-dasharray} such as {@code 6 3}, or empty for a solid line.
     */
    record Series(
        String name, String color, double[] x, double[] y, double width, double opacity, boolean legend, String dash)
    {
    }

    private SvgChart()
    {
    }

    /**
     * @param title   the chart's title.
     * @param xLabel  the x axis label.
     * @param yLabel  the y axis label.
     * @param series  the lines.
     * @param logY    a logarithmic y axis (values must be positive).
     * @param xNames  names of x positions 0, 1, 2, ..., or null for a numeric x axis.
     * @return the SVG element.
     */
    static String lines(
        final String title,
        final String xLabel,
        final String yLabel,
        final List<Series> series,
        final boolean logY,
        final List<String> xNames)
    {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (final Series s : series)
        {
            for (int i = 0; i < s.x().length; i++)
            {
                if (valid(s.y()[i], logY))
                {
                    xMin = Math.min(xMin, s.x()[i]);
                    xMax = Math.max(xMax, s.x()[i]);
                    yMin = Math.min(yMin, s.y()[i]);
                    yMax = Math.max(yMax, s.y()[i]);
                }
            }
        }
        final StringBuilder svg = open(title);
        if (xMin > xMax)
        {
            return close(svg.append(text(LEFT + 10, TOP + 40, "no data", "start")));
        }
        if (xNames != null)
        {
            xMin = 0;
            xMax = Math.max(1, xNames.size() - 1);
        }
        else if (xMin == xMax)
        {
            xMax = xMin + 1;
        }
        final Axis y = logY ? Axis.log(yMin, yMax) : Axis.linear(0, yMax, 0);
        final double x0 = xMin;
        final double x1 = xMax;
        yAxis(svg, y, yLabel);
        if (xNames != null)
        {
            for (int i = 0; i < xNames.size(); i++)
            {
                final double px = LEFT + (i - x0) / (x1 - x0) * plotWidth();
                svg.append(tick(px, xNames.get(i)));
            }
        }
        else
        {
            final Axis x = Axis.linear(x0, x1, integers(series) ? 1 : 0);
            for (final double t : x.ticks)
            {
                svg.append(tick(LEFT + (t - x0) / (x1 - x0) * plotWidth(), format(t)));
            }
        }
        svg.append(text(LEFT + plotWidth() / 2.0, HEIGHT - 8, xLabel, "middle"));
        for (final Series s : series)
        {
            final StringBuilder path = new StringBuilder();
            final StringBuilder marks = new StringBuilder();
            boolean pen = false;
            for (int i = 0; i < s.x().length; i++)
            {
                if (!valid(s.y()[i], logY))
                {
                    pen = false;
                    continue;
                }
                final double px = LEFT + (s.x()[i] - x0) / (x1 - x0) * plotWidth();
                final double py = TOP + plotHeight() * (1 - y.position(s.y()[i]));
                path.append(pen ? " L" : " M").append(f(px)).append(' ').append(f(py));
                pen = true;
                if (s.x().length <= MAX_MARKED_POINTS)
                {
                    final String at = xNames != null && i < xNames.size() ? xNames.get((int)s.x()[i]) : format(s.x()[i]);
                    marks.append("<circle cx=\"").append(f(px)).append("\" cy=\"").append(f(py)).append("\" r=\"")
                        .append(f(s.width() + 1.5)).append("\" fill=\"").append(s.color()).append("\" fill-opacity=\"")
                        .append(f(s.opacity())).append("\"><title>").append(Html.escape(s.name() + ", " + at + ": " +
                        format(s.y()[i]))).append("</title></circle>");
                }
            }
            svg.append("<path d=\"").append(path.toString().trim()).append("\" fill=\"none\" stroke=\"")
                .append(s.color()).append("\" stroke-width=\"").append(f(s.width())).append("\" stroke-opacity=\"")
                .append(f(s.opacity())).append(s.dash().isEmpty() ? "" : "\" stroke-dasharray=\"" + s.dash())
                .append("\"><title>").append(Html.escape(s.name())).append("</title></path>");
            svg.append(marks);
        }
        final Map<String, String> legend = new LinkedHashMap<>();
        series.stream().filter(Series::legend).forEach(s -> legend.putIfAbsent(s.name(), s.color()));
        legend(svg, legend);
        return close(svg);
    }

    /**
     * @param title  the chart's title.
     * @param yLabel the y axis label.
     * @param groups the groups along the x axis.
     * @param names  the bars in each group (legend).
     * @param colors their colours.
     * @param values {@code values[bar][group]}; NaN draws nothing.
     * @return the SVG element.
     */
    static String bars(
        final String title,
        final String yLabel,
        final List<String> groups,
        final List<String> names,
        final List<String> colors,
        final double[][] values)
    {
        double yMax = 0;
        for (final double[] row : values)
        {
            for (final double v : row)
            {
                if (!Double.isNaN(v))
                {
                    yMax = Math.max(yMax, v);
                }
            }
        }
        final StringBuilder svg = open(title);
        final Axis y = Axis.linear(0, yMax > 0 ? yMax : 1, 0);
        yAxis(svg, y, yLabel);
        final double groupWidth = plotWidth() / (double)Math.max(1, groups.size());
        final double barWidth = groupWidth * 0.8 / Math.max(1, names.size());
        for (int g = 0; g < groups.size(); g++)
        {
            final double gx = LEFT + g * groupWidth;
            svg.append(tick(gx + groupWidth / 2, groups.get(g)));
            for (int b = 0; b < names.size(); b++)
            {
                final double v = values[b][g];
                if (Double.isNaN(v))
                {
                    continue;
                }
                final double h = plotHeight() * y.position(v);
                svg.append("<rect x=\"").append(f(gx + groupWidth * 0.1 + b * barWidth)).append("\" y=\"")
                    .append(f(TOP + plotHeight() - h)).append("\" width=\"").append(f(barWidth * 0.92))
                    .append("\" height=\"").append(f(h)).append("\" fill=\"").append(colors.get(b)).append("\"><title>")
                    .append(Html.escape(names.get(b) + ", " + groups.get(g) + ": " + format(v)))
                    .append("</title></rect>");
            }
        }
        final Map<String, String> legend = new LinkedHashMap<>();
        for (int b = 0; b < names.size(); b++)
        {
            legend.put(names.get(b), colors.get(b));
        }
        legend(svg, legend);
        return close(svg);
    }

    /**
     * Formats a number compactly for ticks and tooltips: 1.25M, 350k, 12.5, 0.75.
     */
    static String format(final double v)
    {
        final double a = Math.abs(v);
        if (a >= 1e6)
        {
            return trim(String.format(Locale.ROOT, "%.3g", v / 1e6)) + "M";
        }
        if (a >= 1e3)
        {
            return trim(String.format(Locale.ROOT, "%.3g", v / 1e3)) + "k";
        }
        if (a >= 100 || v == Math.rint(v))
        {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return trim(String.format(Locale.ROOT, "%.3g", v));
    }

    private static String trim(final String number)
    {
        return number.contains(".") && !number.contains("e") ? number.replaceAll("\\.?0+$", "") : number;
    }

    private static boolean integers(final List<Series> series)
    {
        for (final Series s : series)
        {
            for (final double x : s.x())
            {
                if (x != Math.rint(x))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean valid(final double v, final boolean log)
    {
        return !Double.isNaN(v) && !Double.isInfinite(v) && (!log || v > 0);
    }

    private static StringBuilder open(final String title)
    {
        return new StringBuilder().append("<svg class=\"chart\" width=\"")
            .append(WIDTH).append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
            .append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">")
            .append("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>")
            .append(text(LEFT, 20, title, "start").replace("<text ", "<text font-weight=\"bold\" "));
    }

    private static String close(final StringBuilder svg)
    {
        return svg.append("</svg>").toString();
    }

    private static void yAxis(final StringBuilder svg, final Axis y, final String label)
    {
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(TOP + plotHeight()).append("\" x2=\"")
            .append(LEFT + plotWidth()).append("\" y2=\"").append(TOP + plotHeight()).append("\" stroke=\"#444\"/>");
        for (final double t : y.ticks)
        {
            final double py = TOP + plotHeight() * (1 - y.position(t));
            svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(f(py)).append("\" x2=\"")
                .append(LEFT + plotWidth()).append("\" y2=\"").append(f(py)).append("\" stroke=\"#ddd\"/>");
            svg.append(text(LEFT - 6, py + 4, format(t), "end"));
        }
        svg.append("<text x=\"14\" y=\"").append(TOP + plotHeight() / 2).append("\" transform=\"rotate(-90 14 ")
            .append(TOP + plotHeight() / 2).append(")\" text-anchor=\"middle\" font-size=\"12\">")
            .append(Html.escape(label)).append("</text>");
    }

    private static String tick(final double x, final String label)
    {
        return "<line x1=\"" + f(x) + "\" y1=\"" + (TOP + plotHeight()) + "\" x2=\"" + f(x) + "\" y2=\"" +
            (TOP + plotHeight() + 5) + "\" stroke=\"#444\"/>" + text(x, TOP + plotHeight() + 18, label, "middle");
    }

    private static void legend(final StringBuilder svg, final Map<String, String> entries)
    {
        int row = 0;
        for (final Map.Entry<String, String> e : entries.entrySet())
        {
            final int y = TOP + 10 + row++ * 18;
            svg.append("<rect x=\"").append(WIDTH - RIGHT + 14).append("\" y=\"").append(y - 9)
                .append("\" width=\"12\" height=\"12\" fill=\"").append(e.getValue()).append("\"/>");
            svg.append(text(WIDTH - RIGHT + 32, y + 1, e.getKey(), "start"));
        }
    }

    private static String text(final double x, final double y, final String text, final String anchor)
    {
        return "<text x=\"" + f(x) + "\" y=\"" + f(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"12\">" +
            Html.escape(text) + "</text>";
    }

    private static int plotWidth()
    {
        return WIDTH - LEFT - RIGHT;
    }

    private static int plotHeight()
    {
        return HEIGHT - TOP - BOTTOM;
    }

    private static String f(final double v)
    {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * A y (or numeric x) axis: its range, where a value falls in it (0 to 1), and its tick values.
     */
    private static final class Axis
    {
        private final double low;
        private final double high;
        private final boolean log;
        private final double[] ticks;

        private Axis(final double low, final double high, final boolean log, final double[] ticks)
        {
            this.low = low;
            this.high = high;
            this.log = log;
            this.ticks = ticks;
        }

        static Axis linear(final double min, final double max, final double minStep)
        {
            final double span = max - min > 0 ? max - min : 1;
            final double raw = span / 5;
            final double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            final double residual = raw / magnitude;
            final double step = Math.max(minStep,
                (residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1) * magnitude);
            final double low = Math.floor(min / step) * step;
            final double high = Math.ceil(max / step) * step;
            final int count = (int)Math.round((high - low) / step) + 1;
            final double[] ticks = new double[count];
            for (int i = 0; i < count; i++)
            {
                ticks[i] = low + i * step;
            }
            return new Axis(low, high > low ? high : low + step, false, ticks);
        }

        static Axis log(final double min, final double max)
        {
            final int lowExp = (int)Math.floor(Math.log10(min));
            final int highExp = Math.max(lowExp + 1, (int)Math.ceil(Math.log10(max)));
            final double[] ticks = new double[highExp - lowExp + 1];
            for (int i = 0; i < ticks.length; i++)
            {
                ticks[i] = Math.pow(10, lowExp + i);
            }
            return new Axis(Math.pow(10, lowExp), Math.pow(10, highExp), true, ticks);
        }

        double position(final double v)
        {
            if (log)
            {
                return (Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low));
            }
            return (v - low) / (high - low);
        }
    }
}
