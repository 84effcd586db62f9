package io.agni.net.launcher;

import java.util.Locale;

/**
 * Parses a byte count as Redis's configuration does ({@code memtoull} in {@code util.c}): digits, then optionally a
 * unit, case-insensitive: {@code b} = 1, {@code k} = 1,000, {@code kb} = 1,024, {@code m} = 1,000,000,
 * {@code mb} = 1,048,576, {@code g} = 1,000,000,000, {@code gb} = 1,073,741,824. So {@code 100mb} is 100 MiB and
 * {@code 1g} is 10<sup>9</sup> bytes.
 */
final class MemorySize
{
    private MemorySize()
    {
    }

    /**
     * @param text the size, e.g. {@code "268435456"}, {@code "256mb"}, {@code "1gb"}.
     * @return the number of bytes.
     * @throws IllegalArgumentException if the text is not a size or the size does not fit a {@code long}; the
     *                                  message is the reason alone (the caller names the flag).
     */
    static long parse(final String text)
    {
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9')
        {
            digits++;
        }
        if (digits == 0)
        {
            throw new IllegalArgumentException("not a size (digits, then optionally b, k, kb, m, mb, g or gb)");
        }
        final long multiplier = multiplier(text.substring(digits).toLowerCase(Locale.ROOT));
        try
        {
            return Math.multiplyExact(Long.parseLong(text.substring(0, digits)), multiplier);
        }
        catch (final NumberFormatException | ArithmeticException ex)
        {
            throw new IllegalArgumentException("size too large");
        }
    }

    /**
     * @param bytes a byte count.
     * @return it in the largest binary unit that divides it exactly, e.g. {@code "64mb"}, {@code "1000"}; a form
     *         {@link #parse} reads back to the same count.
     */
    static String format(final long bytes)
    {
        final String[] units = {"gb", "mb", "kb"};
        for (int i = 0; i < units.length; i++)
        {
            final long unit = 1L << (10 * (units.length - i));
            if (bytes != 0 && bytes % unit == 0)
            {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }

    private static long multiplier(final String unit)
    {
        switch (unit)
        {
            case "":
            case "b":
                return 1;
            case "k":
                return 1000L;
            case "kb":
                return 1024L;
            case "m":
                return 1000L * 1000;
            case "mb":
                return 1024L * 1024;
            case "g":
                return 1000L * 1000 * 1000;
            case "gb":
                return 1024L * 1024 * 1024;
            default:
                throw new IllegalArgumentException(
                    "unknown unit '" + unit + "' (use b, k, kb, m, mb, g or gb)");
        }
    }
}
