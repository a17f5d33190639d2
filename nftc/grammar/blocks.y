/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Table, chain, set, flowtable and object blocks.
 *
 * One part of the nft grammar: nftc/Makefile.am concatenates
 * grammar/commands.y, blocks.y, matches.y and statements.y, in that
 * order, into parser.y (in the build tree) for bison.
 */

/* Table block */

table_body	:	'{' table_block '}'
			{
				$$ = $2;
				state->scope_depth--;
			}
		|	'{' table_block table_line '}'
			{
				$$ = $2;
				state->scope_depth--;
			}
		;

table_block	:	%empty
			{
				$$ = table_alloc();
				state->scope_depth++;
			}
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
		|	CHAIN chain_name
			{
				rule_memo_clear(state->memo);
				pipeline_chain_begin(state->pipe, $<table>0, $2,
						     &@2);
			}
			chain_body
			{
				rule_memo_clear(state->memo);
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

chain_body	:	'{' chain_block '}'
			{
				$$ = $2;
				state->scope_depth--;
			}
		|	'{' chain_block chain_line '}'
			{
				$$ = $2;
				state->scope_depth--;
			}
		;

/* Every chain block is numbered as stock numbers it (its chain id). */
chain_block	:	%empty
			{
				$$ = chain_alloc();
				$$->handle.chain_id = ++state->chain_ids;
				state->scope_depth++;
				rule_memo_arm(state->memo, $$);
			}
		|	chain_block stmt_sep
			{
				$$ = $1;
				rule_memo_arm(state->memo, $1);
			}
		|	chain_block common_block
			{
				$$ = $1;
				rule_memo_clear(state->memo);
				rule_memo_arm(state->memo, $1);
			}
		|	chain_block chain_line stmt_sep
			{
				$$ = $1;
				rule_memo_arm(state->memo, $1);
			}
		|	chain_block error stmt_sep
			{
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(chain_free($1));
			}
		;

chain_line	:	TYPE STRING HOOK STRING dev_spec PRIORITY prio_expr
			{
				rule_memo_clear(state->memo);
				pipeline_chain_attr(state->pipe, $<chain>0);
				chain_set_hook($<chain>0, $2, &@2, $4, &@4, $5, $7);
			}
		|	POLICY policy_expr
			{
				rule_memo_clear(state->memo);
				pipeline_chain_attr(state->pipe, $<chain>0);
				expr_free($<chain>0->policy);
				$<chain>0->policy = $2;
			}
		|	COMMENT string
			{
				rule_memo_clear(state->memo);
				pipeline_chain_attr(state->pipe, $<chain>0);
				free($<chain>0->comment);
				$<chain>0->comment = $2;
			}
		|	DEVICES '=' set_expr
			{
				rule_memo_clear(state->memo);
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
		|	ELEMENTS '='
			{ parser_elements_begin(state, $<set>0); } set_expr
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

