package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The VGTID JSON: its exact Vitess-like shape, the typed lastPK values and errors that name the JSON path. */
class VgtidJsonTest {

    @Test
    void writesTheVitessShape() {
        Vgtid vgtid = Vgtid.of(
                ShardGtid.of("ks", "-80", GtidPosition.parse("MariaDB/0-1-42"), List.of(
                        new TableLastPk("t", LastPk.builder().add("id", 12L).add("name", "x").build()),
                        TableLastPk.notStarted("u"))),
                ShardGtid.current("ks", "80-"));
        assertThat(OffsetCodec.toJson(vgtid)).isEqualTo("{\"shard_gtids\":["
                + "{\"keyspace\":\"ks\",\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1-42\",\"table_p_ks\":["
                + "{\"table_name\":\"t\",\"lastpk\":{\"fields\":[\"id\",\"name\"],\"values\":[{\"i\":\"12\"},{\"s\":\"x\"}]}},"
                + "{\"table_name\":\"u\"}]},"
                + "{\"keyspace\":\"ks\",\"shard\":\"80-\",\"gtid\":\"current\"}]}");
    }

    @Test
    void writesEveryValueTypeWithItsTag() {
        LastPk pk = LastPk.builder()
                .add("i", -5L)
                .add("u", new BigInteger("18446744073709551615"))
                .add("d", new BigDecimal("12.500"))
                .add("s", "日本")
                .add("b", "hi".getBytes(StandardCharsets.UTF_8))
                .add("n", null)
                .build();
        String json = OffsetCodec.toJson(Vgtid.of(
                ShardGtid.current("ks", "0", List.of(new TableLastPk("t", pk)))));
        assertThat(json).contains("\"values\":[{\"i\":\"-5\"},{\"u\":\"18446744073709551615\"},{\"d\":\"12.500\"},"
                + "{\"s\":\"日本\"},{\"b\":\"aGk=\"},null]");
        LastPk back = OffsetCodec.vgtidFromJson(json).shard("ks", "0").orElseThrow().tablePks().get(0).lastPk();
        assertThat(back).isEqualTo(pk);
        assertThat(back.value(2)).isInstanceOf(BigDecimal.class).extracting(v -> ((BigDecimal) v).scale()).isEqualTo(3);
        assertThat(back.value(1)).isInstanceOf(BigInteger.class);
        assertThat(back.value(0)).isInstanceOf(Long.class);
    }

    @Test
    void readsOptionalPartsLeniently() {
        Vgtid vgtid = OffsetCodec.vgtidFromJson("{\"shard_gtids\":[{\"keyspace\":\"ks\",\"shard\":\"0\","
                + "\"gtid\":\"MySQL56/3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5\",\"table_p_ks\":null},"
                + "{\"keyspace\":\"ks\",\"shard\":\"1\",\"gtid\":\"current\",\"table_p_ks\":[{\"table_name\":\"t\",\"lastpk\":null}]}]}");
        assertThat(vgtid.shard("ks", "0").orElseThrow().gtidText())
                .isEqualTo("MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        assertThat(vgtid.shard("ks", "1").orElseThrow().tablePks()).containsExactly(TableLastPk.notStarted("t"));
        assertThat(OffsetCodec.vgtidFromJson("{\"shard_gtids\":[]}")).isEqualTo(new Vgtid(List.of()));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "'' | Malformed VGTID JSON: it is empty",
        "'  ' | Malformed VGTID JSON: it is empty",
        "{} x | Malformed VGTID JSON: not valid JSON",
        "[] | Malformed VGTID JSON: must be an object, found an array",
        "{} | Malformed VGTID JSON: key 'shard_gtids' is missing",
        "{'shard_gtids':{}} | key 'shard_gtids' must be an array, found an object",
        "{'shard_gtids':[1]} | at shard_gtids[0]: must be an object, found a number",
        "{'shard_gtids':[{'shard':'0','gtid':'current'}]} | at shard_gtids[0]: key 'keyspace' is missing",
        "{'shard_gtids':[{'keyspace':'ks','shard':0,'gtid':'current'}]} | at shard_gtids[0]: key 'shard' must be a string, found a number",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0'}]} | at shard_gtids[0]: key 'gtid' is missing",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'MariaDB/0-1'}]} | at shard_gtids[0]: Malformed MariaDB GTID position 'MariaDB/0-1'",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current'},{'keyspace':'ks','shard':'0','gtid':'current'}]} | at shard_gtids: Shard ks/0 appears twice",
        "{'shard_gtids':[],'shard_gtids':[]} | not valid JSON (Duplicate field 'shard_gtids')",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':{}}]} | at shard_gtids[0].table_p_ks: must be an array",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t'},{'table_name':'t'}]}]} | at shard_gtids[0]: Table 't' appears twice",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[]}}]}]} | at shard_gtids[0].table_p_ks[0].lastpk: it has 1 fields but 0 values",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':[],'values':[]}}]}]} | at shard_gtids[0].table_p_ks[0].lastpk: A lastPK needs at least one column",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a','a'],'values':[null,null]}}]}]} | lastPK column 'a' appears twice",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':[1],'values':[null]}}]}]} | at shard_gtids[0].table_p_ks[0].lastpk.fields[0]: must be a string, found a number",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[12]}}]}]} | at shard_gtids[0].table_p_ks[0].lastpk.values[0]: must be null or an object with one type tag (i, u, d, s, b), found a number",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'i':'1','s':'x'}]}}]}]} | must have exactly one type tag (i, u, d, s, b), found 2 keys",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'i':12}]}}]}]} | at shard_gtids[0].table_p_ks[0].lastpk.values[0]: key 'i' must be a string, found a number",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'i':'99999999999999999999'}]}}]}]} | the 'i' value is not a valid 64-bit integer",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'u':'1.5'}]}}]}]} | the 'u' value is not a valid integer",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'d':'abc'}]}}]}]} | the 'd' value is not a valid decimal number",
        "{'shard_gtids':[{'keyspace':'ks','shard':'0','gtid':'current','table_p_ks':[{'table_name':'t','lastpk':{'fields':['a'],'values':[{'b':'!!'}]}}]}]} | the 'b' value is not valid base64",
    })
    void malformedJsonNamesThePath(String singleQuotedJson, String expected) {
        String json = singleQuotedJson.replace('\'', '"');
        assertThatThrownBy(() -> OffsetCodec.vgtidFromJson(json))
                .isInstanceOf(MalformedPositionException.class)
                .hasMessageContaining(expected);
    }
}
