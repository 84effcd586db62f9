package io.agni.net;

import org.agrona.DirectBuffer;

/**
 * The command names and options {@link AgniClient} sends, each encoded once as a RESP bulk string.
 */
final class ClientKeywords
{
    static final DirectBuffer GET = ClientRequestWriter.keyword("GET");
    static final DirectBuffer SET = ClientRequestWriter.keyword("SET");
    static final DirectBuffer NX = ClientRequestWriter.keyword("NX");
    static final DirectBuffer XX = ClientRequestWriter.keyword("XX");
    static final DirectBuffer PXAT = ClientRequestWriter.keyword("PXAT");
    static final DirectBuffer PX = ClientRequestWriter.keyword("PX");
    static final DirectBuffer KEEPTTL = ClientRequestWriter.keyword("KEEPTTL");
    static final DirectBuffer EXISTS = ClientRequestWriter.keyword("EXISTS");
    static final DirectBuffer MGET = ClientRequestWriter.keyword("MGET");
    static final DirectBuffer MSET = ClientRequestWriter.keyword("MSET");
    static final DirectBuffer MSETNX = ClientRequestWriter.keyword("MSETNX");
    static final DirectBuffer PTTL = ClientRequestWriter.keyword("PTTL");
    static final DirectBuffer PEXPIRETIME = ClientRequestWriter.keyword("PEXPIRETIME");
    static final DirectBuffer STRLEN = ClientRequestWriter.keyword("STRLEN");
    static final DirectBuffer GETRANGE = ClientRequestWriter.keyword("GETRANGE");
    static final DirectBuffer SETRANGE = ClientRequestWriter.keyword("SETRANGE");
    static final DirectBuffer DEL = ClientRequestWriter.keyword("DEL");
    static final DirectBuffer GETDEL = ClientRequestWriter.keyword("GETDEL");
    static final DirectBuffer GETEX = ClientRequestWriter.keyword("GETEX");
    static final DirectBuffer PERSIST = ClientRequestWriter.keyword("PERSIST");
    static final DirectBuffer INCRBY = ClientRequestWriter.keyword("INCRBY");
    static final DirectBuffer INCRBYFLOAT = ClientRequestWriter.keyword("INCRBYFLOAT");
    static final DirectBuffer APPEND = ClientRequestWriter.keyword("APPEND");
    static final DirectBuffer PEXPIREAT = ClientRequestWriter.keyword("PEXPIREAT");
    static final DirectBuffer PEXPIRE = ClientRequestWriter.keyword("PEXPIRE");
    static final DirectBuffer GT = ClientRequestWriter.keyword("GT");
    static final DirectBuffer LT = ClientRequestWriter.keyword("LT");
    static final DirectBuffer RENAME = ClientRequestWriter.keyword("RENAME");
    static final DirectBuffer RENAMENX = ClientRequestWriter.keyword("RENAMENX");
    static final DirectBuffer SCAN = ClientRequestWriter.keyword("SCAN");
    static final DirectBuffer MATCH = ClientRequestWriter.keyword("MATCH");
    static final DirectBuffer COUNT = ClientRequestWriter.keyword("COUNT");
    static final DirectBuffer RANDOMKEY = ClientRequestWriter.keyword("RANDOMKEY");
    static final DirectBuffer DBSIZE = ClientRequestWriter.keyword("DBSIZE");
    static final DirectBuffer FLUSHDB = ClientRequestWriter.keyword("FLUSHDB");
    static final DirectBuffer INFO = ClientRequestWriter.keyword("INFO");
    static final DirectBuffer TIME = ClientRequestWriter.keyword("TIME");
    static final DirectBuffer MULTI = ClientRequestWriter.keyword("MULTI");
    static final DirectBuffer EXEC = ClientRequestWriter.keyword("EXEC");

    private ClientKeywords()
    {
    }
}
