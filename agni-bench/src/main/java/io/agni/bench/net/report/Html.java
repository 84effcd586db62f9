package io.agni.bench.net.report;

/**
 * Escaping for text placed in HTML and SVG.
 */
final class Html
{
    private Html()
    {
    }

    /**
     * @param text any text, or null.
     * @return the text with {@code & < > " '} escaped; empty for null.
     */
    static String escape(final String text)
    {
        if (text == null)
        {
            return "";
        }
        final StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
