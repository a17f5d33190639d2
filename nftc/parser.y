/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Grammar of the nft language (nftables 1.0.6).
 *
 * A pure bison parser. Keywords come from the scanner's sorted table;
 * protocol, field and key names are looked up in proto.h/keys.h tables
 * by the actions rather than spelled out as grammar rules. Constants are
 * left untyped (EXPR_SYMBOL) for the evaluator. See PARSER-IR.md for
 * what each construct becomes.
 */
%define api.pure full
%define api.prefix {nft_}
%define api.location.type {struct location}
%define parse.error verbose
%locations
%parse-param {struct parser_state *state} {void *scanner}
%lex-param {void *scanner}

%code requires {
#include "parser_state.h"
}

%code {
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_synproxy.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include "keys.h"
#include "pipeline.h"

int nft_lex(NFT_STYPE *lval, struct location *lloc, void *scanner);

static void nft_error(struct location *loc, struct parser_state *state,
		      void *scanner, const char *msg)
{
	erec_error(state->erq, loc, "%s", msg);
}

#define YYLLOC_DEFAULT(Cur, Rhs, N)					\
	do {								\
		if (N) {						\
			(Cur) = YYRHSLOC(Rhs, 1);			\
			if (YYRHSLOC(Rhs, N).indesc == (Cur).indesc) {	\
				(Cur).last_line =			\
					YYRHSLOC(Rhs, N).last_line;	\
				(Cur).last_column =			\
					YYRHSLOC(Rhs, N).last_column;	\
			}						\
		} else {						\
			(Cur) = YYRHSLOC(Rhs, 0);			\
			(Cur).first_line = (Cur).last_line;		\
			(Cur).first_column = (Cur).last_column;		\
		}							\
	} while (0)

/*
 * Stop after erq.max_errors errors. Bison does not destroy the symbols of
 * the rule whose action aborts, so the action's own values are released
 * by @cleanup first.
 */
#define CHECK_ERRORS_FREE(cleanup)					\
	do {								\
		if (state->erq->max_errors &&				\
		    state->erq->num_errors >= state->erq->max_errors) {	\
			cleanup;					\
			YYABORT;					\
		}							\
	} while (0)
#define CHECK_ERRORS()	CHECK_ERRORS_FREE((void)0)
}

%union {
	char			*string;
	const char		*kw;
	uint64_t		val;
	struct expr		*expr;
	struct stmt		*stmt;
	struct rule		*rule;
	struct table		*table;
	struct chain		*chain;
	struct set		*set;
	struct obj		*obj;
	struct flowtable	*flowtable;
	struct cmd		*cmd;
	/* a pointer: bison copies the whole union on every shift */
	struct handle		*handle;
}

%token END 0 "end of file"
%token NEWLINE "newline"
%token SEMICOLON "semicolon"
%token COMMA "comma"
%token JUNK "junk"
%token <string> STRING "string"
%token <string> QUOTED_STRING "quoted string"
%token <string> NUM "number"
%token <string> VARIABLE "variable"
%token EQ "==" NEQ "!=" LT "<" GT ">" LTE "<=" GTE ">="
%token LSHIFT "<<" RSHIFT ">>"

%token <kw> PROTO "protocol name"
%token <kw> EXTHDR_NAME "extension header name"
%token <kw> META_UKEY "meta key"

%token <kw> ACCEPT "accept" ADD "add" ALL "all" AND "and" ARP "arp"
%token <kw> AUTO_MERGE "auto-merge" BRIDGE "bridge" BURST "burst"
%token <kw> BYPASS "bypass" BYTES "bytes" CHAIN "chain" CHAINS "chains"
%token <kw> COMMENT "comment" CONTINUE "continue" COUNT "count"
%token <kw> COUNTER "counter" COUNTERS "counters" CREATE "create" CT "ct"
%token <kw> DEFINE "define" DELETE "delete" DESCRIBE "describe"
%token <kw> DESTROY "destroy" DEVICE "device" DEVICES "devices"
%token <kw> DNAT "dnat" DROP "drop" DUP "dup" ELEMENT "element"
%token <kw> ELEMENTS "elements" EXISTS "exists" EXPECTATION "expectation"
%token <kw> EXPIRES "expires" EXTHDR "exthdr" FANOUT "fanout" FIB "fib"
%token <kw> FLAGS "flags" FLOW "flow" FLOWTABLE "flowtable"
%token <kw> FLOWTABLES "flowtables" FLUSH "flush"
%token <kw> FULLY_RANDOM "fully-random" FWD "fwd"
%token <kw> GC_INTERVAL "gc-interval" GET "get" GOTO "goto" GROUP "group"
%token <kw> HANDLE "handle" HELPER "helper" HOOK "hook"
%token <kw> INCLUDE "include" INDEX "index" INET "inet" INSERT "insert"
%token <kw> IP "ip" IP6 "ip6" IPSEC "ipsec" JHASH "jhash" JUMP "jump"
%token <kw> L3PROTO "l3proto" LAST "last" LEVEL "level" LIMIT "limit"
%token <kw> LIMITS "limits" LIST "list" LOG "log" MAP "map" MAPS "maps"
%token <kw> MASQUERADE "masquerade" META "meta" METER "meter"
%token <kw> MISSING "missing" MOD "mod" MSS "mss" NAME "name"
%token <kw> NETDEV "netdev" NEVER "never" NOTRACK "notrack" NUMKW "num"
%token <kw> NUMGEN "numgen" OFFLOAD "offload" OFFSET "offset"
%token <kw> OPTION "option" OPTIONS "options" OR "or"
%token <kw> ORIGINAL "original" OSF "osf" OVER "over" PACKETS "packets"
%token <kw> PERSISTENT "persistent" POLICY "policy" POSITION "position"
%token <kw> PREFIX "prefix" PRIORITY "priority" PROTOCOL "protocol"
%token <kw> QUEUE "queue" QUEUE_THRESHOLD "queue-threshold"
%token <kw> QUOTA "quota" QUOTAS "quotas" RANDOM "random" RATE "rate"
%token <kw> REDEFINE "redefine" REDIRECT "redirect" REJECTKW "reject"
%token <kw> RENAME "rename" REPLACE "replace" REPLY "reply"
%token <kw> RESET "reset" RETURN "return" RT "rt" RULE "rule"
%token <kw> RULES "rules" RULESET "ruleset" SACK_PERM "sack-perm"
%token <kw> SECMARK "secmark" SEED "seed" SEQUENCE "sequence" SET "set"
%token <kw> SETS "sets" SIZE "size" SNAPLEN "snaplen" SNAT "snat"
%token <kw> SOCKET "socket" SPNUM "spnum" SYMHASH "symhash"
%token <kw> SYNPROXY "synproxy" TABLE "table" TABLES "tables"
%token <kw> TIMEOUT "timeout" TIMESTAMP "timestamp" TO "to"
%token <kw> TPROXY "tproxy" TTL "ttl" TYPE "type" TYPEOF "typeof"
%token <kw> UNDEFINE "undefine" UNTIL "until" UPDATE "update" USED "used"
%token <kw> VERSION "version" VMAP "vmap" WITH "with" WSCALE "wscale"
%token <kw> XOR "xor"

%type <cmd> base_cmd add_cmd delete_cmd list_cmd flush_cmd reset_cmd
%type <handle> table_spec chain_spec rule_position set_spec
%type <handle> family_unspec_spec
%type <val> family family_opt nat_family
%type <string> identifier string time_arg obj_comment
%type <kw> field_name key_name kw_value opt_name kw_ident opt_field
%type <table> table_block table_body
%type <chain> chain_block chain_body
%type <set> set_block set_body
%type <obj> counter_body quota_body limit_body quota_config limit_config
%type <obj> counter_block quota_block limit_block secmark_block
%type <obj> ct_helper_block secmark_body
%type <obj> ct_helper_body synproxy_body synproxy_blk
%type <flowtable> ft_block ft_body
%type <rule> rule stmt_list
%type <stmt> stmt match_stmt verdict_stmt counter_stmt log_stmt
%type <stmt> limit_stmt limit_args quota_stmt reject_stmt nat_stmt
%type <stmt> nat_args nat_target
%type <stmt> tproxy_stmt queue_stmt queue_base dup_stmt fwd_stmt set_stmt
%type <stmt> objref_stmt connlimit_stmt synproxy_stmt synproxy_cfg flow_stmt
%type <stmt> last_stmt assign_stmt elem_stmt
%type <expr> expr primary selector payload_sel exthdr_sel meta_sel
%type <expr> ct_sel rt_sel socket_sel osf_sel fib_sel numgen_sel
%type <expr> hash_sel xfrm_sel verdict_expr chain_target
%type <expr> set_expr set_elems set_elem set_key elem_data rhs rhs_list
%type <expr> lhs value prio_expr dev_spec policy_expr type_spec
%type <expr> typeof_spec
%type <val> relop fib_flags fib_flag log_flags log_flag nat_flags
%type <val> nat_flag set_flags set_flag queue_flags queue_flag
%type <val> osf_ttl numgen_offset limit_over byte_count
%type <val> number set_op meter_size named_obj plural_obj
%type <string> kw_or_string rate_unit
%type <expr> value_token

%destructor { free($$); } <string>
%destructor { expr_free($$); } <expr>
%destructor { stmt_free($$); } <stmt>
%destructor { rule_free($$); } <rule>
%destructor { table_free($$); } <table>
%destructor { chain_free($$); } <chain>
%destructor { set_free($$); } <set>
%destructor { obj_free($$); } <obj>
%destructor { flowtable_free($$); } <flowtable>
%destructor { cmd_free($$); } <cmd>
%destructor { handle_free($$); free($$); } <handle>

%precedence MAP
%left '.'
%left '|' OR
%left '^' XOR
%left '&' AND
%left LSHIFT RSHIFT
%left '-'
%left '/'

%expect 8

%start input

%%

input		:	%empty
		|	input line
		;

stmt_sep	:	NEWLINE
		|	SEMICOLON
		;

opt_nl		:	%empty
		|	opt_nl NEWLINE
		;

line		:	common_block
		|	stmt_sep
		|	base_cmd stmt_sep
			{
				/* stock's command span ends with its separator */
				if ($1)
					$1->location = @$;
				if (parser_cmd_done(state, $1) < 0)
					YYABORT;
			}
		|	base_cmd END
			{
				if (parser_cmd_done(state, $1) < 0)
					YYABORT;
			}
		|	error stmt_sep
			{
				yyerrok;
				CHECK_ERRORS();
			}
		;

common_block	:	INCLUDE QUOTED_STRING stmt_sep
			{
				int ret = scanner_include(state, $2, &@$);

				free($2);
				if (ret < 0)
					CHECK_ERRORS();
			}
		|	DEFINE identifier '=' value stmt_sep
			{
				if (symbol_lookup(state, $2)) {
					erec_error(state->erq, &@2,
						   "redefinition of symbol '%s'",
						   $2);
					expr_free($4);
				} else {
					symbol_bind(state, $2, $4);
				}
				free($2);
			}
		|	REDEFINE identifier '=' value stmt_sep
			{
				symbol_bind(state, $2, $4);
				free($2);
			}
		|	UNDEFINE identifier stmt_sep
			{
				/* stock nft ignores unknown names here */
				symbol_unbind(state, $2);
				free($2);
			}
		;

value		:	rhs
		;

identifier	:	STRING
		|	QUOTED_STRING
		|	kw_ident	{ $$ = strdup($1); }
		;

/* Keywords that are also common object names. */
kw_ident	:	FWD | DUP | LOG | LAST | NAME | HOOK | DEVICE | TYPE
		|	MAP | SET | RULE | CHAIN | TABLE | ELEMENT | OPTION
		|	OPTIONS | VERSION | SIZE | POLICY | PRIORITY | PROTOCOL
		|	GROUP | LEVEL | PREFIX | RATE | COUNT | SEED | OFFSET
		|	INDEX | POSITION | HANDLE | TIMEOUT | EXPIRES | USED
		|	NEVER | OVER | UNTIL | WITH | TO | MOD | BURST | EXISTS
		|	MISSING
		|	ORIGINAL | REPLY | ALL | BYPASS | FANOUT | PERSISTENT
		|	RANDOM | FULLY_RANDOM | SNAPLEN | TTL | MSS | WSCALE
		|	HELPER | L3PROTO | COMMENT | FLAGS | DEVICES | ELEMENTS
		|	SECMARK | METER | VMAP | PACKETS | BYTES | QUOTA | LIMIT
		|	COUNTER | SYNPROXY | FLOWTABLE | OFFLOAD | ACCEPT | DROP
		|	CONTINUE | RETURN | QUEUE | REJECTKW | NOTRACK | FLOW
		|	SNAT | DNAT | MASQUERADE | REDIRECT | TPROXY | TABLES
		|	CHAINS | SETS | MAPS | RULES | RULESET | COUNTERS
		|	QUOTAS | LIMITS | FLOWTABLES | RESET | FLUSH | LIST
		|	ADD | DELETE | UPDATE | INSERT | REPLACE | CREATE
		|	DESTROY | RENAME | DESCRIBE | INCLUDE | DEFINE | GET
		|	REDEFINE | UNDEFINE | AUTO_MERGE | GC_INTERVAL
		|	QUEUE_THRESHOLD | SACK_PERM | TIMESTAMP | SEQUENCE
		|	EXPECTATION | SPNUM | TYPEOF | NUMKW
		;

string		:	STRING
		|	QUOTED_STRING
		;

number		:	NUM
			{
				if (parse_u64($1, &$$) < 0)
					erec_error(state->erq, &@1,
						   "invalid number %s", $1);
				free($1);
			}
		;

time_arg	:	STRING
		|	NUM
		;

/* Commands */

base_cmd	:	add_cmd
		|	ADD add_cmd		{ $$ = $2; }
		|	CREATE add_cmd		{ $$ = $2; $$->op = CMD_CREATE; }
		|	INSERT RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_INSERT, $3, $4, &@$);
			}
		|	REPLACE RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_REPLACE, $3, $4, &@$);
			}
		|	DELETE delete_cmd	{ $$ = $2; }
		|	DESTROY delete_cmd	{ $$ = $2; $$->op = CMD_DESTROY; }
		|	LIST list_cmd		{ $$ = $2; }
		|	FLUSH flush_cmd		{ $$ = $2; }
		|	RESET reset_cmd		{ $$ = $2; }
		|	RENAME CHAIN chain_spec identifier
			{
				$$ = cmd_alloc(CMD_RENAME, CMD_OBJ_CHAIN, $3, &@$,
					       NULL);
				$$->arg = $4;
				handle_free($3);
				free($3);
			}
		|	GET ELEMENT set_spec set_expr
			{
				$$ = cmd_obj(CMD_GET, CMD_OBJ_ELEMENTS, $3, &@$,
					     $4);
			}
		|	DESCRIBE expr
			{
				$$ = cmd_alloc(CMD_DESCRIBE, CMD_OBJ_EXPR, NULL,
					       &@$, $2);
			}
		;

add_cmd		:	TABLE table_spec
			{
				struct table *t = table_alloc();

				t->location = @$;
				handle_merge(&t->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, t);
			}
		|	TABLE table_spec
			{
				pipeline_table_begin(state->pipe, $2);
			}
			table_body
			{
				table_fixup(state, $4, $2, &@$);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, $4);
			}
		|	CHAIN chain_spec
			{
				struct chain *c = chain_alloc();

				c->location = @$;
				handle_merge(&c->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, c);
			}
		|	CHAIN chain_spec chain_body
			{
				$3->location = @$;
				chain_fixup($3, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, $3);
			}
		|	RULE rule_position rule
			{
				$$ = cmd_rule(state, CMD_ADD, $2, $3, &@$);
			}
		|	SET set_spec set_body
			{
				$3->location = @$;
				handle_merge(&$3->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_SET, $2, &@$, $3);
			}
		|	MAP set_spec set_body
			{
				$3->location = @$;
				$3->flags |= SET_F_MAP;
				handle_merge(&$3->handle, $2);
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_MAP, $2, &@$, $3);
			}
		|	ELEMENT set_spec { parser_elements_begin(state); } set_expr
			{
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_ELEMENTS, $2, &@$,
					     $4);
				parser_elements_end(state, $$ ? &$$->pack : NULL,
						    $$ ? $4 : NULL);
			}
		|	FLOWTABLE set_spec ft_body
			{
				$3->location = @$;
				handle_merge(&$3->handle, $2);
				$3->handle.flowtable.name = $3->handle.set.name;
				$3->handle.set.name = NULL;
				$$ = cmd_obj(CMD_ADD, CMD_OBJ_FLOWTABLE, $2, &@$,
					     $3);
				cmd_move_set_name(&$$->handle, 2);
			}
		|	COUNTER set_spec
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$,
						 obj_new(&@$, NFT_OBJECT_COUNTER));
			}
		|	COUNTER set_spec PACKETS number BYTES number
			{
				struct obj *o = obj_new(&@$, NFT_OBJECT_COUNTER);

				o->counter.packets = $4;
				o->counter.bytes = $6;
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$, o);
			}
		|	COUNTER set_spec counter_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_COUNTER, $2, &@$,
						 $3);
			}
		|	QUOTA set_spec quota_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_QUOTA, $2, &@$,
						 $3);
			}
		|	QUOTA set_spec quota_config
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_QUOTA, $2, &@$,
						 $3);
			}
		|	LIMIT set_spec limit_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_LIMIT, $2, &@$,
						 $3);
			}
		|	LIMIT set_spec limit_config
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_LIMIT, $2, &@$,
						 $3);
			}
		|	CT HELPER set_spec ct_helper_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_CT_HELPER, $3,
						 &@$, $4);
			}
		|	SYNPROXY set_spec synproxy_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_SYNPROXY, $2,
						 &@$, $3);
			}
		|	SECMARK set_spec secmark_body
			{
				$$ = cmd_new_obj(CMD_ADD, CMD_OBJ_SECMARK, $2,
						 &@$, $3);
			}
		;

/*
 * delete/list/flush/reset: the object kind is a value of the grammar
 * (named_obj, plural_obj) rather than one rule per kind.
 */
delete_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	TABLE family_opt HANDLE number
			{
				struct handle *h = calloc(1, sizeof(*h));

				if (!h)
					YYABORT;
				h->family = $2;
				handle_set_id(&h->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_TABLE, h, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	CHAIN table_spec HANDLE number
			{
				handle_set_id(&$2->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	RULE chain_spec HANDLE number
			{
				handle_set_id(&$2->handle, $4, &@4);
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_RULE, $2, &@$,
					     NULL);
			}
		|	ELEMENT set_spec { parser_elements_begin(state); } set_expr
			{
				$$ = cmd_obj(CMD_DELETE, CMD_OBJ_ELEMENTS, $2, &@$,
					     $4);
				parser_elements_end(state, $$ ? &$$->pack : NULL,
						    $$ ? $4 : NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_DELETE, $1, $2, &@$);
			}
		;

list_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_LIST, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_LIST, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_LIST, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_LIST, $1, $2, &@$, NULL);
			}
		;

flush_cmd	:	TABLE table_spec
			{
				$$ = cmd_obj(CMD_FLUSH, CMD_OBJ_TABLE, $2, &@$,
					     NULL);
			}
		|	CHAIN chain_spec
			{
				$$ = cmd_obj(CMD_FLUSH, CMD_OBJ_CHAIN, $2, &@$,
					     NULL);
			}
		|	named_obj set_spec
			{
				$$ = cmd_named(CMD_FLUSH, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_FLUSH, $1, $2, &@$, NULL);
			}
		;

reset_cmd	:	named_obj set_spec
			{
				$$ = cmd_named(CMD_RESET, $1, $2, &@$);
			}
		|	plural_obj family_unspec_spec
			{
				$$ = cmd_obj(CMD_RESET, $1, $2, &@$, NULL);
			}
		;

named_obj	:	SET		{ $$ = CMD_OBJ_SET; }
		|	MAP		{ $$ = CMD_OBJ_MAP; }
		|	FLOWTABLE	{ $$ = CMD_OBJ_FLOWTABLE; }
		|	COUNTER		{ $$ = CMD_OBJ_COUNTER; }
		|	QUOTA		{ $$ = CMD_OBJ_QUOTA; }
		|	LIMIT		{ $$ = CMD_OBJ_LIMIT; }
		|	CT HELPER	{ $$ = CMD_OBJ_CT_HELPER; }
		|	SYNPROXY	{ $$ = CMD_OBJ_SYNPROXY; }
		|	SECMARK		{ $$ = CMD_OBJ_SECMARK; }
		;

plural_obj	:	RULESET		{ $$ = CMD_OBJ_RULESET; }
		|	TABLES		{ $$ = CMD_OBJ_TABLES; }
		|	CHAINS		{ $$ = CMD_OBJ_CHAINS; }
		|	SETS		{ $$ = CMD_OBJ_SETS; }
		|	MAPS		{ $$ = CMD_OBJ_MAPS; }
		|	COUNTERS	{ $$ = CMD_OBJ_COUNTERS; }
		|	QUOTAS		{ $$ = CMD_OBJ_QUOTAS; }
		|	LIMITS		{ $$ = CMD_OBJ_LIMITS; }
		|	FLOWTABLES	{ $$ = CMD_OBJ_FLOWTABLES; }
		;

family		:	IP		{ $$ = NFPROTO_IPV4; }
		|	IP6		{ $$ = NFPROTO_IPV6; }
		|	INET		{ $$ = NFPROTO_INET; }
		|	ARP		{ $$ = NFPROTO_ARP; }
		|	BRIDGE		{ $$ = NFPROTO_BRIDGE; }
		|	NETDEV		{ $$ = NFPROTO_NETDEV; }
		;

family_opt	:	%empty		{ $$ = NFPROTO_IPV4; }
		|	family
		;

family_unspec_spec :	%empty
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$)
					YYABORT;
			}
		|	family
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$)
					YYABORT;
				$$->family = $1;
			}
		|	TABLE table_spec	{ $$ = $2; }
		;

table_spec	:	family_opt identifier
			{
				$$ = calloc(1, sizeof(*$$));
				if (!$$) {
					free($2);
					YYABORT;
				}
				$$->family = $1;
				$$->table.name = $2;
				$$->table.location = @2;
			}
		;

chain_spec	:	table_spec identifier
			{
				$$ = $1;
				$$->chain.name = $2;
				$$->chain.location = @2;
			}
		;

set_spec	:	table_spec identifier
			{
				$$ = $1;
				$$->set.name = $2;
				$$->set.location = @2;
			}
		;

rule_position	:	chain_spec
		|	chain_spec POSITION number
			{
				/* stock underlines "position N" */
				struct location l = location_join(&@2, &@3);

				$$ = $1;
				handle_set_id(&$$->position, $3, &l);
			}
		|	chain_spec HANDLE number
			{
				$$ = $1;
				handle_set_id(&$$->handle, $3, &@3);
			}
		|	chain_spec INDEX number
			{
				/* 0-based; stock underlines "index N" */
				struct location l = location_join(&@2, &@3);

				$$ = $1;
				handle_set_id(&$$->index, $3, &l);
			}
		;

/* Table block */

table_body	:	'{' table_block '}'		{ $$ = $2; }
		|	'{' table_block table_line '}'	{ $$ = $2; }
		;

table_block	:	%empty		{ $$ = table_alloc(); }
		|	table_block stmt_sep
		|	table_block common_block
		|	table_block table_line stmt_sep
		|	table_block error stmt_sep
			{
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(table_free($1));
			}
		;

table_line	:	FLAGS STRING
			{
				pipeline_table_attr(state->pipe, $<table>0);
				table_set_flag(state, $<table>0, $2, &@2);
			}
		|	COMMENT string
			{
				pipeline_table_attr(state->pipe, $<table>0);
				free($<table>0->comment);
				$<table>0->comment = $2;
			}
		|	CHAIN identifier
			{
				pipeline_chain_begin(state->pipe, $<table>0, $2,
						     &@2);
			}
			chain_body
			{
				/* a streamed chain is its command's already */
				if (pipeline_chain_end(state->pipe, $4, &@$)) {
					free($2);
					chain_free($4);
				} else {
					table_add_chain($<table>0, $2, &@2, $4,
							&@$);
				}
			}
		|	SET identifier set_body
			{
				table_add_set($<table>0, $2, &@2, $3, &@$);
			}
		|	MAP identifier set_body
			{
				$3->flags |= SET_F_MAP;
				table_add_set($<table>0, $2, &@2, $3, &@$);
			}
		|	FLOWTABLE identifier ft_body
			{
				table_add_flowtable($<table>0, $2, &@2, $3, &@$);
			}
		|	COUNTER identifier
			{
				table_add_obj($<table>0, $2, &@2,
					      obj_new(&@$, NFT_OBJECT_COUNTER),
					      &@$);
			}
		|	COUNTER identifier counter_body
			{
				table_add_obj($<table>0, $2, &@2, $3, &@$);
			}
		|	QUOTA identifier quota_body
			{
				table_add_obj($<table>0, $2, &@2, $3, &@$);
			}
		|	LIMIT identifier limit_body
			{
				table_add_obj($<table>0, $2, &@2, $3, &@$);
			}
		|	CT HELPER identifier ct_helper_body
			{
				table_add_obj($<table>0, $3, &@3, $4, &@$);
			}
		|	SYNPROXY identifier synproxy_body
			{
				table_add_obj($<table>0, $2, &@2, $3, &@$);
			}
		|	SECMARK identifier secmark_body
			{
				table_add_obj($<table>0, $2, &@2, $3, &@$);
			}
		;

/* Chain block */

chain_body	:	'{' chain_block '}'		{ $$ = $2; }
		|	'{' chain_block chain_line '}'	{ $$ = $2; }
		;

chain_block	:	%empty		{ $$ = chain_alloc(); }
		|	chain_block stmt_sep
		|	chain_block common_block
		|	chain_block chain_line stmt_sep
		|	chain_block error stmt_sep
			{
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(chain_free($1));
			}
		;

chain_line	:	TYPE STRING HOOK STRING dev_spec PRIORITY prio_expr
			{
				pipeline_chain_attr(state->pipe, $<chain>0);
				chain_set_hook($<chain>0, $2, &@2, $4, &@4, $5, $7);
			}
		|	POLICY policy_expr
			{
				pipeline_chain_attr(state->pipe, $<chain>0);
				expr_free($<chain>0->policy);
				$<chain>0->policy = $2;
			}
		|	COMMENT string
			{
				pipeline_chain_attr(state->pipe, $<chain>0);
				free($<chain>0->comment);
				$<chain>0->comment = $2;
			}
		|	DEVICES '=' set_expr
			{
				pipeline_chain_attr(state->pipe, $<chain>0);
				expr_free($<chain>0->devices);
				$<chain>0->devices = devices_from_set($3);
			}
		|	rule
			{
				if (!pipeline_rule(state->pipe, $<chain>0, $1))
					list_add_tail(&$1->list,
						      &$<chain>0->rules);
				if (pipeline_failed(state->pipe))
					YYABORT;
			}
		;

dev_spec	:	%empty			{ $$ = NULL; }
		|	DEVICE string
			{
				$$ = list_expr_alloc(&@$, EXPR_LIST);
				list_expr_add($$, sym_expr(&@2, $2));
			}
		|	DEVICE VARIABLE
			{
				struct expr *v = var_expr(state, &@2, $2);

				if (!v)
					YYERROR;
				$$ = list_expr_alloc(&@$, EXPR_LIST);
				list_expr_add($$, v);
			}
		|	DEVICES '=' set_expr	{ $$ = devices_from_set($3); }
		;

prio_expr	:	NUM			{ $$ = sym_expr(&@1, $1); }
		|	'-' NUM			{ $$ = neg_sym_expr(&@$, $2); }
		|	STRING			{ $$ = sym_expr(&@1, $1); }
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		|	STRING '+' NUM
			{
				$$ = binop_expr_alloc(&@$, OP_ADD,
						      sym_expr(&@1, $1),
						      sym_expr(&@3, $3));
			}
		|	STRING '-' NUM
			{
				$$ = binop_expr_alloc(&@$, OP_SUB,
						      sym_expr(&@1, $1),
						      sym_expr(&@3, $3));
			}
		;

policy_expr	:	ACCEPT		{ $$ = kw_expr(&@1, $1); }
		|	DROP		{ $$ = kw_expr(&@1, $1); }
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		;

/* Set block */

set_body	:	'{' set_block '}'		{ $$ = $2; }
		|	'{' set_block set_line '}'	{ $$ = $2; }
		;

set_block	:	%empty		{ $$ = set_alloc(&@$); }
		|	set_block stmt_sep
		|	set_block common_block
		|	set_block set_line stmt_sep
		|	set_block error stmt_sep
			{
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(set_free($1));
			}
		;

set_line	:	TYPE type_spec
			{
				expr_free($<set>0->key);
				$<set>0->key = type_finish($2);
			}
		|	TYPE type_spec ':' type_spec
			{
				expr_free($<set>0->key);
				expr_free($<set>0->data);
				$<set>0->key = type_finish($2);
				$<set>0->data = type_finish($4);
				$<set>0->flags |= SET_F_MAP;
			}
		|	TYPE type_spec ':' COUNTER
			{
				set_objmap($<set>0, type_finish($2), NFT_OBJECT_COUNTER);
			}
		|	TYPE type_spec ':' QUOTA
			{
				set_objmap($<set>0, type_finish($2), NFT_OBJECT_QUOTA);
			}
		|	TYPE type_spec ':' LIMIT
			{
				set_objmap($<set>0, type_finish($2), NFT_OBJECT_LIMIT);
			}
		|	TYPEOF typeof_spec
			{
				expr_free($<set>0->key);
				$<set>0->key = $2;
				$<set>0->key_typeof = true;
			}
		|	TYPEOF typeof_spec ':' typeof_spec
			{
				expr_free($<set>0->key);
				expr_free($<set>0->data);
				$<set>0->key = $2;
				$<set>0->data = $4;
				$<set>0->key_typeof = true;
				$<set>0->data_typeof = true;
				$<set>0->flags |= SET_F_MAP;
			}
		|	FLAGS set_flags		{ $<set>0->flags |= $2; }
		|	TIMEOUT time_arg
			{
				$<set>0->timeout = time_ms(state, &@2, $2);
			}
		|	GC_INTERVAL time_arg
			{
				$<set>0->gc_int = time_ms(state, &@2, $2);
			}
		|	SIZE number		{ $<set>0->size = $2; }
		|	POLICY STRING
			{
				set_policy(state, $<set>0, $2, &@2);
			}
		|	AUTO_MERGE		{ $<set>0->automerge = true; }
		|	ELEMENTS '=' { parser_elements_begin(state); } set_expr
			{
				parser_elements_end(state, &$<set>0->pack, $4);
				expr_free($<set>0->init);
				$<set>0->init = $4;
			}
		|	COMMENT string
			{
				free($<set>0->comment);
				$<set>0->comment = $2;
			}
		|	elem_stmt
			{
				list_add_tail(&$1->list, &$<set>0->stmts);
			}
		;

type_spec	:	STRING		{ $$ = type_expr(state, &@$, NULL, $1, &@1); }
		|	META_UKEY
			{
				$$ = type_expr(state, &@$, NULL, strdup($1), &@1);
			}
		|	type_spec '.' STRING
			{
				$$ = type_expr(state, &@$, $1, $3, &@3);
			}
		|	type_spec '.' META_UKEY
			{
				$$ = type_expr(state, &@$, $1, strdup($3), &@3);
			}
		;

typeof_spec	:	selector
		|	typeof_spec '.' selector	{ $$ = concat($1, $3, &@$); }
		;

set_flags	:	set_flag
		|	set_flags COMMA set_flag		{ $$ = $1 | $3; }
		;

set_flag	:	STRING
			{
				$$ = set_flag_lookup(state, $1, &@1);
			}
		|	TIMEOUT		{ $$ = SET_F_TIMEOUT; }
		;

/* Flowtable block */

ft_body		:	'{' ft_block '}'	{ $$ = $2; }
		|	'{' ft_block ft_line '}'	{ $$ = $2; }
		;

ft_block	:	%empty		{ $$ = flowtable_alloc(&@$); }
		|	ft_block stmt_sep
		|	ft_block ft_line stmt_sep
		|	ft_block error stmt_sep
			{
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(flowtable_free($1));
			}
		;

ft_line		:	HOOK STRING PRIORITY prio_expr
			{
				name_ref_set(&$<flowtable>0->hook_name, $2, &@2);
				expr_free($<flowtable>0->priority);
				$<flowtable>0->priority = $4;
			}
		|	DEVICES '=' set_expr
			{
				expr_free($<flowtable>0->devices);
				$<flowtable>0->devices = devices_from_set($3);
			}
		|	FLAGS OFFLOAD
			{
				$<flowtable>0->flags |= 1; /* NFT_FLOWTABLE_HW_OFFLOAD */
			}
		|	COUNTER
			{
				$<flowtable>0->flags |= 2; /* NFT_FLOWTABLE_COUNTER */
			}
		;

/*
 * Stateful object blocks, as stock's: settings, comments and separators
 * in any order, a later setting replacing an earlier one.
 */

counter_body	:	'{' counter_block '}'
			{
				$$ = $2;
				$$->location = @$;
			}
		;

counter_block	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_COUNTER);
			}
		|	counter_block stmt_sep
		|	counter_block error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	counter_block common_block
		|	counter_block PACKETS number BYTES number
			{
				$$ = $1;
				$$->counter.packets = $3;
				$$->counter.bytes = $5;
			}
		|	counter_block obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

obj_comment	:	COMMENT string			{ $$ = $2; }
		;

quota_body	:	'{' quota_block '}'
			{
				$$ = $2;
				$$->location = @$;
			}
		;

quota_block	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_QUOTA);
			}
		|	quota_block stmt_sep
		|	quota_block error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	quota_block common_block
		|	quota_block quota_config
			{
				$$ = $1;
				$$->quota = $2->quota;
				obj_free($2);
			}
		|	quota_block obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

quota_config	:	limit_over number byte_count
			{
				$$ = obj_new(&@$, NFT_OBJECT_QUOTA);
				$$->quota.bytes = $2 * $3;
				$$->quota.flags = $1 ? NFT_QUOTA_F_INV : 0;
			}
		|	limit_over number byte_count USED number byte_count
			{
				$$ = obj_new(&@$, NFT_OBJECT_QUOTA);
				$$->quota.bytes = $2 * $3;
				$$->quota.used = $5 * $6;
				$$->quota.flags = $1 ? NFT_QUOTA_F_INV : 0;
			}
		;

limit_body	:	'{' limit_block '}'
			{
				$$ = $2;
				$$->location = @$;
			}
		;

limit_block	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_LIMIT);
			}
		|	limit_block stmt_sep
		|	limit_block error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	limit_block common_block
		|	limit_block limit_config
			{
				$$ = $1;
				$$->limit = $2->limit;
				obj_free($2);
			}
		|	limit_block obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

limit_config	:	limit_args
			{
				$$ = obj_new(&@$, NFT_OBJECT_LIMIT);
				$$->limit.rate = $1->limit.rate;
				$$->limit.unit = $1->limit.unit;
				$$->limit.burst = $1->limit.burst;
				$$->limit.type = $1->limit.type;
				$$->limit.flags = $1->limit.flags;
				stmt_free($1);
			}
		;

ct_helper_body	:	'{' ct_helper_block '}'		{ $$ = $2; }
		;

ct_helper_block	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_CT_HELPER);
			}
		|	ct_helper_block stmt_sep
		|	ct_helper_block error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	ct_helper_block TYPE QUOTED_STRING PROTOCOL kw_or_string
			{
				$$ = $1;
				snprintf($$->ct_helper.name,
					 sizeof($$->ct_helper.name), "%s", $3);
				free($3);
				$$->ct_helper.l4proto =
					l4proto_lookup(state, $5, &@5);
				free($5);
			}
		|	ct_helper_block L3PROTO family
			{
				$$ = $1;
				$$->ct_helper.l3proto = $3;
			}
		|	ct_helper_block obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

kw_or_string	:	STRING
		|	PROTO		{ $$ = strdup($1); }
		;

synproxy_body	:	'{' synproxy_blk '}'
			{
				$$ = $2;
				$$->location = @$;
			}
		;

secmark_body	:	'{' secmark_block '}'
			{
				$$ = $2;
				$$->location = @$;
			}
		;

secmark_block	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_SECMARK);
			}
		|	secmark_block stmt_sep
		|	secmark_block error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	secmark_block common_block
		|	secmark_block QUOTED_STRING
			{
				$$ = $1;
				snprintf($$->secmark.ctx, sizeof($$->secmark.ctx),
					 "%s", $2);
				free($2);
			}
		|	secmark_block obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

/* Rules */

rule		:	stmt_list
		|	stmt_list COMMENT string
			{
				$$ = $1;
				$$->comment = $3;
			}
		;

stmt_list	:	stmt
			{
				$$ = rule_alloc(&@$, NULL);
				list_add_tail(&$1->list, &$$->stmts);
				$$->num_stmts = 1;
			}
		|	stmt_list stmt
			{
				$$ = $1;
				$$->location = @$;
				list_add_tail(&$2->list, &$$->stmts);
				$$->num_stmts++;
			}
		;

stmt		:	match_stmt
		|	verdict_stmt
		|	counter_stmt
		|	log_stmt
		|	limit_stmt
		|	quota_stmt
		|	reject_stmt
		|	nat_stmt
		|	tproxy_stmt
		|	queue_stmt
		|	dup_stmt
		|	fwd_stmt
		|	assign_stmt
		|	set_stmt
		|	objref_stmt
		|	connlimit_stmt
		|	synproxy_stmt
		|	flow_stmt
		|	last_stmt
		|	NOTRACK		{ $$ = stmt_alloc(&@$, STMT_NOTRACK); }
		|	RESET selector
			{
				$$ = stmt_alloc(&@$, STMT_OPTSTRIP);
				$$->optstrip.expr = $2;
			}
		;

/* Matches */

match_stmt	:	lhs rhs
			{
				$$ = match(state, &@$, OP_IMPLICIT, $1, $2);
			}
		|	lhs relop rhs
			{
				$$ = match(state, &@$, $2, $1, $3);
			}
		|	lhs '!' rhs
			{
				$$ = match(state, &@$, OP_NEG, $1, $3);
			}
		;

relop		:	EQ	{ $$ = OP_EQ; }
		|	NEQ	{ $$ = OP_NEQ; }
		|	LT	{ $$ = OP_LT; }
		|	GT	{ $$ = OP_GT; }
		|	LTE	{ $$ = OP_LTE; }
		|	GTE	{ $$ = OP_GTE; }
		|	'<'	{ $$ = OP_LT; }
		|	'>'	{ $$ = OP_GT; }
		;

rhs		:	expr
		|	rhs_list
		;

rhs_list	:	expr COMMA expr
			{
				$$ = list_expr_alloc(&@$, EXPR_LIST);
				list_expr_add($$, $1);
				list_expr_add($$, $3);
			}
		|	rhs_list COMMA expr
			{
				$$ = $1;
				$$->location = @$;
				list_expr_add($$, $3);
			}
		;

expr		:	primary
		|	expr '.' expr		{ $$ = concat($1, $3, &@$); }
		|	expr '|' expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	expr OR expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	expr '^' expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	expr XOR expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	expr '&' expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	expr AND expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	expr LSHIFT expr
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
		|	expr RSHIFT expr
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
		|	expr '-' expr
			{
				$$ = range_expr_alloc(&@$, $1, $3);
			}
		|	expr '/' expr		{ $$ = slash(&@$, $1, $3); }
		|	expr MAP primary
			{
				$$ = map_expr_alloc(&@$, $1, $3);
			}
		;

lhs		:	selector
		|	STRING		{ $$ = sym_expr(&@1, $1); }
		|	'(' lhs ')'	{ $$ = $2; }
		|	lhs '.' lhs		{ $$ = concat($1, $3, &@$); }
		|	lhs '|' primary
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	lhs OR primary
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
		|	lhs '^' primary
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	lhs XOR primary
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
		|	lhs '&' primary
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	lhs AND primary
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
		|	lhs LSHIFT primary
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
		|	lhs RSHIFT primary
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
		;

primary		:	NUM		{ $$ = sym_expr(&@1, $1); }
		|	STRING		{ $$ = sym_expr(&@1, $1); }
		|	QUOTED_STRING
			{
				$$ = symbol_expr_alloc_own(&@1, SYMBOL_QUOTED, $1);
			}
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		|	kw_value	{ $$ = kw_expr(&@1, $1); }
		|	'*'		{ $$ = kw_expr(&@1, "*"); }
		|	'[' STRING ']'	{ $$ = sym_expr(&@$, $2); }
		|	'(' expr ')'	{ $$ = $2; }
		|	set_expr
		|	'@' identifier	{ $$ = set_ref(&@$, $2, &@2); }
		|	selector
		;

kw_value	:	IP | IP6 | ARP | INET | BRIDGE | NETDEV | PROTO
		|	EXTHDR_NAME | ORIGINAL | REPLY | EXISTS | MISSING
		|	DNAT | SNAT | REDIRECT | ALL | RESET
		;

/* Sets */

set_expr	:	'{' opt_nl '}'
			{
				$$ = list_expr_alloc(&@$, EXPR_SET);
			}
		|	'{' opt_nl set_elems opt_nl '}'
			{
				$$ = $3;
				$$->location = @$;
			}
		|	'{' opt_nl set_elems COMMA opt_nl '}'
			{
				$$ = $3;
				$$->location = @$;
			}
		;

set_elems	:	set_elem
			{
				$$ = list_expr_alloc(&@$, EXPR_SET);
				list_expr_add($$, $1);
			}
		|	set_elems COMMA opt_nl set_elem
			{
				$$ = $1;
				parser_set_elems_add(state, $$, $4);
			}
		;

set_elem	:	set_key
		|	set_key ':' elem_data
			{
				$$ = mapping_expr_alloc(&@$, $1, $3);
			}
		;

set_key		:	expr
			{
				$$ = set_elem_expr_alloc(&@$, $1);
			}
		|	set_key TIMEOUT time_arg
			{
				$$ = $1;
				$$->elem.timeout = time_ms(state, &@3, $3);
			}
		|	set_key EXPIRES time_arg
			{
				$$ = $1;
				$$->elem.expiration = time_ms(state, &@3, $3);
			}
		|	set_key COMMENT string
			{
				$$ = $1;
				free($$->elem.comment);
				$$->elem.comment = $3;
			}
		|	set_key elem_stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->elem.stmts);
			}
		;

elem_stmt	:	counter_stmt
		|	limit_stmt
		|	connlimit_stmt
		|	quota_stmt
		|	last_stmt
		;

elem_data	:	expr
		|	verdict_expr
		;

/* Selectors */

selector	:	payload_sel
		|	exthdr_sel
		|	meta_sel
		|	ct_sel
		|	rt_sel
		|	socket_sel
		|	osf_sel
		|	fib_sel
		|	numgen_sel
		|	hash_sel
		|	xfrm_sel
		;

field_name	:	STRING		{ $$ = keep_string(state, $1); }
		|	TYPE | PROTOCOL | FLAGS | PRIORITY | SEQUENCE | VERSION
		|	SIZE | GROUP | TTL | LEVEL | OFFSET | HANDLE | INDEX
		|	NAME | TIMESTAMP | HELPER | L3PROTO | BYTES | PACKETS
		;

key_name	:	field_name
		|	META_UKEY
		|	IPSEC
		|	SECMARK
		;

payload_sel	:	PROTO field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	IP field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	IP6 field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	ARP field_name
			{
				$$ = payload_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	'@' STRING COMMA number COMMA number
			{
				$$ = raw_payload(state, &@$, $2, &@2, $4, $6);
				if (!$$)
					YYERROR;
			}
		|	'@' PROTO COMMA number COMMA number
			{
				$$ = raw_payload(state, &@$, strdup($2), &@2, $4,
						 $6);
				if (!$$)
					YYERROR;
			}
		;

opt_name	:	STRING		{ $$ = keep_string(state, $1); }
		|	TIMESTAMP | SACK_PERM | MSS
		;

opt_field	:	field_name
		|	COUNT
		;

exthdr_sel	:	EXTHDR_NAME field_name
			{
				$$ = exthdr_sel(state, &@$, $1, &@1, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	EXTHDR EXTHDR_NAME
			{
				$$ = exthdr_sel(state, &@$, $2, &@2, NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	EXTHDR RT
			{
				$$ = exthdr_sel(state, &@$, $2, &@2, NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION opt_name opt_field
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3, $4,
						&@4);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION opt_name
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3,
						NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	IP OPTION opt_name opt_field
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3, $4,
						&@4);
				if (!$$)
					YYERROR;
			}
		|	IP OPTION opt_name
			{
				$$ = option_sel(state, &@$, $1, &@1, $3, &@3,
						NULL, NULL);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION '@' number COMMA number COMMA number
			{
				$$ = raw_option(state, &@$, $1, &@1, $4, $6, $8);
				if (!$$)
					YYERROR;
			}
		|	PROTO OPTION number
			{
				/* an option by its kind: "tcp option 23" */
				$$ = raw_option(state, &@$, $1, &@1, $3, 0, 8);
				if (!$$)
					YYERROR;
				$$->exthdr.flags = NFT_EXTHDR_F_PRESENT;
				$$->dtype = &boolean_type;
			}
		;

meta_sel	:	META key_name
			{
				$$ = meta_sel(state, &@$, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	META RANDOM
			{
				$$ = meta_sel(state, &@$, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	META_UKEY
			{
				$$ = meta_sel(state, &@$, $1, &@1);
				if (!$$)
					YYERROR;
			}
		;

ct_sel		:	CT key_name
			{
				$$ = ct_sel(state, &@$, -1, 0, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	CT ORIGINAL key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_ORIGINAL, 0, $3,
					    &@3);
				if (!$$)
					YYERROR;
			}
		|	CT REPLY key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_REPLY, 0, $3,
					    &@3);
				if (!$$)
					YYERROR;
			}
		|	CT ORIGINAL family key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_ORIGINAL, $3, $4,
					    &@4);
				if (!$$)
					YYERROR;
			}
		|	CT REPLY family key_name
			{
				$$ = ct_sel(state, &@$, IP_CT_DIR_REPLY, $3, $4,
					    &@4);
				if (!$$)
					YYERROR;
			}
		;

rt_sel		:	RT key_name
			{
				$$ = rt_sel(state, &@$, 0, $2, &@2);
				if (!$$)
					YYERROR;
			}
		|	RT IP key_name
			{
				$$ = rt_sel(state, &@$, NFPROTO_IPV4, $3, &@3);
				if (!$$)
					YYERROR;
			}
		|	RT IP6 key_name
			{
				$$ = rt_sel(state, &@$, NFPROTO_IPV6, $3, &@3);
				if (!$$)
					YYERROR;
			}
		;

socket_sel	:	SOCKET key_name
			{
				$$ = socket_sel(state, &@$, $2, &@2, 0);
				if (!$$)
					YYERROR;
			}
		|	SOCKET key_name LEVEL number
			{
				$$ = socket_sel(state, &@$, $2, &@2, $4);
				if (!$$)
					YYERROR;
			}
		;

osf_sel		:	OSF osf_ttl NAME
			{
				$$ = osf_expr_alloc(&@$, $2, 0);
			}
		|	OSF osf_ttl VERSION
			{
				$$ = osf_expr_alloc(&@$, $2, NFT_OSF_F_VERSION);
			}
		;

osf_ttl		:	%empty		{ $$ = 0; }
		|	TTL STRING
			{
				$$ = osf_ttl_lookup(state, $2, &@2);
			}
		;

fib_sel		:	FIB fib_flags key_name
			{
				$$ = fib_sel(state, &@$, $2, $3, &@3);
				if (!$$)
					YYERROR;
			}
		;

fib_flags	:	fib_flag
		|	fib_flags '.' fib_flag	{ $$ = $1 | $3; }
		;

fib_flag	:	STRING
			{
				$$ = fib_flag_lookup(state, $1, &@1);
			}
		|	META_UKEY
			{
				$$ = fib_flag_lookup(state, strdup($1), &@1);
			}
		;

numgen_sel	:	NUMGEN STRING MOD number numgen_offset
			{
				$$ = numgen_sel(state, &@$, $2, &@2, $4, $5);
			}
		|	NUMGEN RANDOM MOD number numgen_offset
			{
				$$ = numgen_expr_alloc(&@$, NFT_NG_RANDOM, $4, $5);
			}
		;

numgen_offset	:	%empty			{ $$ = 0; }
		|	OFFSET number		{ $$ = $2; }
		;

hash_sel	:	JHASH lhs MOD number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $4, false, 0, $5,
						     NFT_HASH_JENKINS);
				$$->hash.expr = $2;
			}
		|	JHASH lhs MOD number SEED number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $4, true, $6, $7,
						     NFT_HASH_JENKINS);
				$$->hash.expr = $2;
			}
		|	SYMHASH MOD number numgen_offset
			{
				$$ = hash_expr_alloc(&@$, $3, false, 0, $4,
						     NFT_HASH_SYM);
			}
		;

xfrm_sel	:	IPSEC STRING key_name
			{
				$$ = xfrm_sel(state, &@$, $2, &@2, 0, 0, $3, &@3);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING SPNUM number key_name
			{
				struct location l = location_join(&@3, &@4);

				if ($4 > 255)
					erec_error(state->erq, &l, "value too large");
				$$ = xfrm_sel(state, &@$, $2, &@2, $4, 0, $5, &@5);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING family key_name
			{
				$$ = xfrm_sel(state, &@$, $2, &@2, 0, $3, $4, &@4);
				if (!$$)
					YYERROR;
			}
		|	IPSEC STRING SPNUM number family key_name
			{
				struct location l = location_join(&@3, &@4);

				if ($4 > 255)
					erec_error(state->erq, &l, "value too large");
				$$ = xfrm_sel(state, &@$, $2, &@2, $4, $5, $6,
					      &@6);
				if (!$$)
					YYERROR;
			}
		;

/* Statements */

verdict_expr	:	ACCEPT
			{
				$$ = verdict_expr_alloc(&@$, NF_ACCEPT, NULL);
			}
		|	DROP
			{
				$$ = verdict_expr_alloc(&@$, NF_DROP, NULL);
			}
		|	CONTINUE
			{
				$$ = verdict_expr_alloc(&@$, NFT_CONTINUE, NULL);
			}
		|	RETURN
			{
				$$ = verdict_expr_alloc(&@$, NFT_RETURN, NULL);
			}
		|	JUMP chain_target
			{
				$$ = verdict_expr_alloc(&@$, NFT_JUMP, $2);
			}
		|	GOTO chain_target
			{
				$$ = verdict_expr_alloc(&@$, NFT_GOTO, $2);
			}
		;

chain_target	:	identifier	{ $$ = sym_expr(&@1, $1); }
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		;

verdict_stmt	:	verdict_expr
			{
				$$ = verdict_stmt_alloc(&@$, $1);
			}
		|	lhs VMAP primary
			{
				$$ = verdict_stmt_alloc(&@$,
						map_expr_alloc(&@$, $1, $3));
			}
		;

counter_stmt	:	COUNTER
			{
				$$ = stmt_alloc(&@$, STMT_COUNTER);
			}
		|	counter_stmt PACKETS number
			{
				$$ = $1;
				$$->location = @$;
				$$->counter.packets = $3;
			}
		|	counter_stmt BYTES number
			{
				$$ = $1;
				$$->location = @$;
				$$->counter.bytes = $3;
			}
		;

log_stmt	:	LOG
			{
				$$ = stmt_alloc(&@$, STMT_LOG);
			}
		|	log_stmt PREFIX string
			{
				$$ = $1;
				free($$->log.prefix);
				$$->log.prefix = $3;
				$$->log.flags |= STMT_LOG_PREFIX;
			}
		|	log_stmt LEVEL STRING
			{
				$$ = $1;
				if (parse_log_level($3, &$$->log.level) < 0)
					erec_error(state->erq, &@3,
						   "invalid log level");
				free($3);
				$$->log.flags |= STMT_LOG_LEVEL;
			}
		|	log_stmt GROUP number
			{
				$$ = $1;
				$$->log.group = $3;
				$$->log.flags |= STMT_LOG_GROUP;
			}
		|	log_stmt SNAPLEN number
			{
				$$ = $1;
				$$->log.snaplen = $3;
				$$->log.flags |= STMT_LOG_SNAPLEN;
			}
		|	log_stmt QUEUE_THRESHOLD number
			{
				$$ = $1;
				$$->log.qthreshold = $3;
				$$->log.flags |= STMT_LOG_QTHRESHOLD;
			}
		|	log_stmt FLAGS log_flags
			{
				$$ = $1;
				$$->log.logflags |= $3;
			}
		;

log_flags	:	log_flag
		|	log_flags COMMA log_flag	{ $$ = $1 | $3; }
		;

log_flag	:	PROTO SEQUENCE		{ $$ = NF_LOG_TCPSEQ; }
		|	PROTO OPTIONS		{ $$ = NF_LOG_TCPOPT; }
		|	SEQUENCE		{ $$ = NF_LOG_TCPSEQ; }
		|	OPTIONS			{ $$ = NF_LOG_TCPOPT; }
		|	IP OPTIONS		{ $$ = NF_LOG_IPOPT; }
		|	META_UKEY		{ $$ = NF_LOG_UID; }
		|	PROTO			{ $$ = NF_LOG_MACDECODE; }
		|	ALL			{ $$ = NF_LOG_MASK; }
		;

limit_over	:	%empty		{ $$ = 0; }
		|	UNTIL		{ $$ = 0; }
		|	OVER		{ $$ = 1; }
		;

limit_stmt	:	LIMIT limit_args
			{
				$$ = $2;
				$$->location = @$;
			}
		;

limit_args	:	RATE limit_over number '/' rate_unit
			{
				$$ = limit_pkts(state, &@$, $2, $3, $5, &@5, 5);
			}
		|	RATE limit_over number '/' rate_unit BURST number
			PACKETS
			{
				$$ = limit_pkts(state, &@$, $2, $3, $5, &@5, $7);
			}
		|	RATE limit_over number STRING
			{
				$$ = limit_bytes(state, &@$, $2, $3, $4, &@4, NULL,
						 0, 0);
			}
		|	RATE limit_over number STRING BURST number
			byte_count
			{
				$$ = limit_bytes(state, &@$, $2, $3, $4, &@4, NULL,
						 $6, $7);
			}
		|	RATE limit_over number byte_count '/' rate_unit
			{
				$$ = limit_bytes(state, &@$, $2, $3, NULL, &@4, $6,
						 0, 0);
				$$->limit.rate *= $4;
			}
		;

/* "hour" and "day" are also meta keys */
rate_unit	:	STRING
		|	META_UKEY	{ $$ = strdup($1); }
		;

byte_count	:	BYTES		{ $$ = 1; }
		|	STRING
			{
				if (parse_byte_unit($1, &$$) < 0) {
					erec_error(state->erq, &@1,
						   "invalid byte unit %s", $1);
					$$ = 1;
				}
				free($1);
			}
		;

quota_stmt	:	QUOTA limit_over number byte_count
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.bytes = $3 * $4;
				$$->quota.flags = $2 ? NFT_QUOTA_F_INV : 0;
			}
		|	QUOTA limit_over number byte_count USED number
			byte_count
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.bytes = $3 * $4;
				$$->quota.used = $6 * $7;
				$$->quota.flags = $2 ? NFT_QUOTA_F_INV : 0;
			}
		;

reject_stmt	:	REJECTKW
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = NFT_REJECT_ICMP_UNREACH;
			}
		|	REJECTKW WITH PROTO TYPE value_token
			{
				$$ = reject_with(state, &@$, $3, &@3, $5);
			}
		|	REJECTKW WITH PROTO value_token
			{
				$$ = reject_with(state, &@$, $3, &@3, $4);
			}
		|	REJECTKW WITH PROTO RESET
			{
				$$ = reject_with(state, &@$, $3, &@3, NULL);
			}
		;

value_token	:	STRING		{ $$ = sym_expr(&@1, $1); }
		|	NUM		{ $$ = sym_expr(&@1, $1); }
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		;

nat_family	:	%empty		{ $$ = 0; }
		|	IP		{ $$ = NFPROTO_IPV4; }
		|	IP6		{ $$ = NFPROTO_IPV6; }
		;

nat_stmt	:	SNAT nat_family nat_args
			{
				$$ = $3;
				$$->location = @$;
				$$->nat.kind = NAT_SNAT;
				$$->nat.family = $2;
			}
		|	DNAT nat_family nat_args
			{
				$$ = $3;
				$$->location = @$;
				$$->nat.kind = NAT_DNAT;
				$$->nat.family = $2;
			}
		|	MASQUERADE
			{
				$$ = nat_new(&@$, NAT_MASQ);
			}
		|	MASQUERADE TO ':' expr
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.proto = $4;
			}
		|	MASQUERADE nat_flags
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.flags = $2;
			}
		|	MASQUERADE TO ':' expr nat_flags
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.proto = $4;
				$$->nat.flags = $5;
			}
		|	REDIRECT
			{
				$$ = nat_new(&@$, NAT_REDIR);
			}
		|	REDIRECT TO ':' expr
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $4;
			}
		|	REDIRECT TO expr
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $3;
			}
		|	REDIRECT nat_flags
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.flags = $2;
			}
		|	REDIRECT TO ':' expr nat_flags
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $4;
				$$->nat.flags = $5;
			}
		;

nat_args	:	nat_target
		|	nat_target nat_flags
			{
				$$ = $1;
				$$->nat.flags |= $2;
			}
		;

nat_target	:	TO expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.addr = $2;
			}
		|	TO expr ':' expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.addr = $2;
				$$->nat.proto = $4;
			}
		|	TO ':' expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.proto = $3;
			}
		|	PREFIX nat_target
			{
				$$ = $2;
				$$->nat.type_flags |= 1;
			}
		|	STRING '.' STRING nat_target
			{
				$$ = $4;
				$$->nat.type_flags |= 2;
				free($1);
				free($3);
			}
		;

nat_flags	:	nat_flag
		|	nat_flags COMMA nat_flag	{ $$ = $1 | $3; }
		;

nat_flag	:	PERSISTENT	{ $$ = NF_NAT_RANGE_PERSISTENT; }
		|	RANDOM		{ $$ = NF_NAT_RANGE_PROTO_RANDOM; }
		|	FULLY_RANDOM	{ $$ = NF_NAT_RANGE_PROTO_RANDOM_FULLY; }
		;

tproxy_stmt	:	TPROXY nat_family TO expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.addr = $4;
			}
		|	TPROXY nat_family TO expr ':' expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.addr = $4;
				$$->tproxy.port = $6;
			}
		|	TPROXY nat_family TO ':' expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.port = $5;
			}
		;

queue_stmt	:	queue_base
		|	queue_base TO expr
			{
				$$ = $1;
				$$->location = @$;
				expr_free($$->queue.queue);
				$$->queue.queue = $3;
			}
		;

queue_base	:	QUEUE
			{
				$$ = stmt_alloc(&@$, STMT_QUEUE);
			}
		|	queue_base NUMKW NUM
			{
				$$ = $1;
				expr_free($$->queue.queue);
				$$->queue.queue = sym_expr(&@3, $3);
			}
		|	queue_base NUMKW NUM '-' NUM
			{
				$$ = $1;
				expr_free($$->queue.queue);
				$$->queue.queue = range_expr_alloc(&@$,
							sym_expr(&@3, $3),
							sym_expr(&@5, $5));
			}
		|	queue_base queue_flags
			{
				/* "queue num 0-3 bypass,fanout" (pre-0.9 syntax) */
				$$ = $1;
				$$->queue.flags |= $2;
			}
		|	queue_base FLAGS queue_flags
			{
				$$ = $1;
				$$->queue.flags |= $3;
			}
		;

queue_flags	:	queue_flag
		|	queue_flags COMMA queue_flag	{ $$ = $1 | $3; }
		;

queue_flag	:	BYPASS		{ $$ = NFT_QUEUE_FLAG_BYPASS; }
		|	FANOUT		{ $$ = NFT_QUEUE_FLAG_CPU_FANOUT; }
		;

dup_stmt	:	DUP TO expr
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->dup.to = $3;
			}
		|	DUP TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->dup.to = $3;
				$$->dup.dev = $5;
			}
		;

fwd_stmt	:	FWD TO expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.dev = $3;
			}
		|	FWD IP TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.family = NFPROTO_IPV4;
				$$->fwd.addr = $4;
				$$->fwd.dev = $6;
			}
		|	FWD IP6 TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.family = NFPROTO_IPV6;
				$$->fwd.addr = $4;
				$$->fwd.dev = $6;
			}
		;

assign_stmt	:	selector SET rhs
			{
				$$ = assign(state, &@$, $1, $3);
			}
		;

set_op		:	ADD	{ $$ = NFT_DYNSET_OP_ADD; }
		|	UPDATE	{ $$ = NFT_DYNSET_OP_UPDATE; }
		|	DELETE	{ $$ = NFT_DYNSET_OP_DELETE; }
		;

set_stmt	:	set_op '@' identifier '{' opt_nl set_key opt_nl '}'
			{
				$$ = set_stmt(&@$, $1, set_ref(&@3, $3, &@3),
					      $6, NULL);
			}
		|	set_op '@' identifier '{' opt_nl set_key ':' expr
			opt_nl '}'
			{
				$$ = set_stmt(&@$, $1, set_ref(&@3, $3, &@3),
					      $6, $8);
			}
		|	METER identifier meter_size '{' opt_nl set_key opt_nl '}'
			{
				$$ = meter_stmt(&@$, $2, &@2, $3, $6);
			}
		|	SET set_op expr '@' identifier
			{
				$$ = set_stmt(&@$, $2, set_ref(&@5, $5, &@5),
					      set_elem_expr_alloc(&@3, $3), NULL);
			}
		;

meter_size	:	%empty			{ $$ = 0; }
		|	SIZE number		{ $$ = $2; }
		;

objref_stmt	:	COUNTER NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_COUNTER, $3);
			}
		|	QUOTA NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_QUOTA, $3);
			}
		|	LIMIT NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_LIMIT, $3);
			}
		|	SYNPROXY NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_SYNPROXY, $3);
			}
		|	CT TIMEOUT SET rhs
			{
				$$ = objref(&@$, NFT_OBJECT_CT_TIMEOUT, $4);
			}
		|	CT EXPECTATION SET rhs
			{
				$$ = objref(&@$, NFT_OBJECT_CT_EXPECT, $4);
			}
		;

connlimit_stmt	:	CT COUNT limit_over number
			{
				$$ = stmt_alloc(&@$, STMT_CONNLIMIT);
				$$->connlimit.count = $4;
				$$->connlimit.flags = $3 ? NFT_CONNLIMIT_F_INV : 0;
			}
		;

synproxy_stmt	:	SYNPROXY synproxy_cfg
			{
				$$ = $2;
				$$->location = @$;
			}
		;

synproxy_cfg	:	%empty
			{
				$$ = stmt_alloc(&@$, STMT_SYNPROXY);
			}
		|	synproxy_cfg synproxy_opt
		;

/* The object: options, separators and a comment, in any order. */
synproxy_blk	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_SYNPROXY);
			}
		|	synproxy_blk synproxy_oopt
		|	synproxy_blk stmt_sep
		|	synproxy_blk error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	synproxy_blk obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

synproxy_oopt	:	MSS number
			{
				$<obj>0->synproxy.mss = $2;
				$<obj>0->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
			}
		|	WSCALE number
			{
				$<obj>0->synproxy.wscale = $2;
				$<obj>0->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
			}
		|	TIMESTAMP
			{
				$<obj>0->synproxy.flags |=
					NF_SYNPROXY_OPT_TIMESTAMP;
			}
		|	SACK_PERM
			{
				$<obj>0->synproxy.flags |=
					NF_SYNPROXY_OPT_SACK_PERM;
			}
		;

synproxy_opt	:	MSS number
			{
				$<stmt>0->synproxy.mss = $2;
				$<stmt>0->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
			}
		|	WSCALE number
			{
				$<stmt>0->synproxy.wscale = $2;
				$<stmt>0->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
			}
		|	TIMESTAMP
			{
				$<stmt>0->synproxy.flags |=
					NF_SYNPROXY_OPT_TIMESTAMP;
			}
		|	SACK_PERM
			{
				$<stmt>0->synproxy.flags |=
					NF_SYNPROXY_OPT_SACK_PERM;
			}
		;

flow_stmt	:	FLOW ADD '@' identifier
			{
				$$ = stmt_alloc(&@$, STMT_FLOW_OFFLOAD);
				$$->flow.table_name = $4;
			}
		|	FLOW OFFLOAD '@' identifier
			{
				$$ = stmt_alloc(&@$, STMT_FLOW_OFFLOAD);
				$$->flow.table_name = $4;
			}
		;

last_stmt	:	LAST
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
			}
		|	LAST USED NEVER
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
			}
		|	LAST USED time_arg
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
				$$->last.used = time_ms(state, &@3, $3);
				$$->last.set = 1;
			}
		;

%%
