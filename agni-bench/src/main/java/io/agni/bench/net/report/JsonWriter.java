package io.agni.bench.net.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A small streaming JSON writer, enough for the results file without a JSON library: objects, arrays, strings with
 * the escapes JSON requires, numbers (NaN and infinities, which JSON lacks, become {@code null}), booleans, null;
 * two-space indentation.
 *
 * <h2>Threads</h2>
 * Not thread-safe.
 */
final class JsonWriter
{
    private static final MathContext SIGNIFICANT = new MathContext(7);

    private final StringBuilder out = new StringBuilder();
    private final Deque<boolean[]> first = new ArrayDeque<>();
    private boolean afterName;

    JsonWriter beginObject()
    {
        return open('{');
    }

    JsonWriter endObject()
    {
        return close('}');
    }

    JsonWriter beginArray()
    {
        return open('[');
    }

    JsonWriter endArray()
    {
        return close(']');
    }

    JsonWriter name(final String name)
    {
        separate();
        quote(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    JsonWriter value(final String value)
    {
        separate();
        if (value == null)
        {
            out.append("null");
        }
        else
        {
            quote(value);
        }
        return this;
    }

    JsonWriter value(final double value)
    {
        separate();
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            out.append("null");
        }
        else if (value == Math.rint(value) && Math.abs(value) < 1e15)
        {
            out.append((long)value);
        }
        else
        {
            out.append(BigDecimal.valueOf(value).round(SIGNIFICANT).stripTrailingZeros().toPlainString());
        }
        return this;
    }

    JsonWriter value(final long value)
    {
        separate();
        out.append(value);
        return this;
    }

    JsonWriter value(final boolean value)
    {
        separate();
        out.append(value);
        return this;
    }

    JsonWriter field(final String name, final String value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final double value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final long value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final boolean value)
    {
        return name(name).value(value);
    }

    @Override
    public String toString()
    {
        return out.toString();
    }

    private JsonWriter open(final char bracket)
    {
        separate();
        out.append(bracket);
        first.push(new boolean[]{true});
        return this;
    }

    private JsonWriter close(final char bracket)
    {
        final boolean empty = first.pop()[0];
        if (!empty)
        {
            newline();
        }
        out.append(bracket);
        if (first.isEmpty())
        {
            out.append('\n');
        }
        return this;
    }

    private void separate()
    {
        if (afterName)
        {
            afterName = false;
            return;
        }
        if (!first.isEmpty())
        {
            final boolean[] isFirst = first.peek();
            if (!isFirst[0])
            {
                out.append(',');
            }
            isFirst[0] = false;
            newline();
        }
    }

    private void newline()
    {
        out.append('\n');
        out.append("  ".repeat(first.size()));
    }

    private void quote(final String text)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&')
                    {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
