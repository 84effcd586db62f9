/**
 * Not API: code that agni's own modules share (the number grammar of {@code INCRBYFLOAT}), exported only to them
 * with a qualified export, so that neither a module-path user nor the javadoc sees it. A classpath user can reach it
 * but must not: it may change in any release.
 */
package io.agni.api.internal;
