package io.agni.bench.net;

import picocli.CommandLine;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations as people write them on a command line: {@code 500ms}, {@code 5s}, {@code 1.5s}, {@code 2m},
 * {@code 1h}, a bare number of seconds, or ISO-8601 ({@code PT5S}).
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration>
{
    private static final Pattern SIMPLE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(final String value)
    {
        return parse(value);
    }

    /**
     * @param value the text.
     * @return the duration.
     * @throws CommandLine.TypeConversionException if the text is not a duration, with the accepted forms.
     */
    static Duration parse(final String value)
    {
        final String text = value.trim().toLowerCase(Locale.ROOT);
        final Matcher m = SIMPLE.matcher(text);
        if (m.matches())
        {
            final double number = Double.parseDouble(m.group(1));
            final String unit = m.group(2) == null ? "s" : m.group(2);
            final double nanos = switch (unit)
            {
                case "ms" -> number * 1e6;
                case "m" -> number * 60e9;
                case "h" -> number * 3600e9;
                default -> number * 1e9;
            };
            return Duration.ofNanos(Math.round(nanos));
        }
        try
        {
            return Duration.parse(value.trim());
        }
        catch (final DateTimeParseException ex)
        {
            throw new CommandLine.TypeConversionException("not a duration: '" + value +
                "' (expected e.g. 500ms, 5s, 1.5s, 2m, 1h or PT5S)");
        }
    }
}
