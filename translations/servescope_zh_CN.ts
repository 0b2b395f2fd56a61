<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DiagnosisWords</name>
    <message>
        <source>The endpoint answered a streamed request correctly.</source>
        <translation>端点正确响应了流式请求。</translation>
    </message>
    <message>
        <source>The base URL is not a valid http:// or https:// address.</source>
        <translation>基础 URL 不是有效的 http:// 或 https:// 地址。</translation>
    </message>
    <message>
        <source>The address contains /v1 twice. Remove /v1 from the base URL; the path already has it.</source>
        <translation>地址中出现了两次 /v1。请从基础 URL 中去掉 /v1，路径里已经包含它。</translation>
    </message>
    <message>
        <source>Nothing is listening at that address and port. Is the server running, and is the port right?</source>
        <translation>该地址和端口上没有服务在监听。服务器是否在运行？端口是否正确？</translation>
    </message>
    <message>
        <source>The host name could not be resolved. Check the spelling, or your DNS and VPN.</source>
        <translation>无法解析主机名。请检查拼写，或检查 DNS 和 VPN。</translation>
    </message>
    <message>
        <source>The secure connection failed (certificate or TLS version). Check https:// versus http://.</source>
        <translation>安全连接失败（证书或 TLS 版本）。请确认应使用 https:// 还是 http://。</translation>
    </message>
    <message>
        <source>The server did not answer in time. It may be overloaded, still loading the model, or behind a firewall.</source>
        <translation>服务器未能及时响应。它可能过载、仍在加载模型，或位于防火墙之后。</translation>
    </message>
    <message>
        <source>The server refused the API key. Check the key stored for this profile.</source>
        <translation>服务器拒绝了 API 密钥。请检查此配置保存的密钥。</translation>
    </message>
    <message>
        <source>The server refused the API key, and the pasted key had spaces or line breaks around it. Paste it again.</source>
        <translation>服务器拒绝了 API 密钥，且粘贴的密钥前后带有空格或换行。请重新粘贴。</translation>
    </message>
    <message>
        <source>The server has no such route. Check the path (for example /v1/chat/completions).</source>
        <translation>服务器上没有该路由。请检查路径（例如 /v1/chat/completions）。</translation>
    </message>
    <message>
        <source>The server does not serve this model. Pick one of the models it lists.</source>
        <translation>服务器未提供该模型。请从它列出的模型中选择一个。</translation>
    </message>
    <message>
        <source>The server redirected the request. Use the final address as the base URL.</source>
        <translation>服务器对请求进行了重定向。请使用最终地址作为基础 URL。</translation>
    </message>
    <message>
        <source>The server is rate limiting this key. Wait, or use a key with a higher limit.</source>
        <translation>服务器正在对此密钥限流。请稍候，或使用限额更高的密钥。</translation>
    </message>
    <message>
        <source>The server failed with an internal error. Its logs will say why.</source>
        <translation>服务器发生内部错误。原因请查看其日志。</translation>
    </message>
    <message>
        <source>The server answered with an error message instead of tokens.</source>
        <translation>服务器返回了错误信息，而不是 token。</translation>
    </message>
    <message>
        <source>The stream carried no choices. This endpoint may not be OpenAI-compatible.</source>
        <translation>流中没有 choices。此端点可能不兼容 OpenAI。</translation>
    </message>
    <message>
        <source>The stream ended without any token.</source>
        <translation>流在没有任何 token 的情况下结束。</translation>
    </message>
    <message>
        <source>The connection test failed for another reason; see the details.</source>
        <translation>连接测试因其他原因失败，请查看详细信息。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>详细信息：%1</translation>
    </message>
    <message>
        <source>Models served: %1</source>
        <translation>提供的模型：%1</translation>
    </message>
    <message>
        <source>Longest context (max_model_len): %1 tokens</source>
        <translation>最长上下文（max_model_len）：%1 个 token</translation>
    </message>
    <message>
        <source>Token usage reported: %1</source>
        <translation>是否报告 token 用量：%1</translation>
    </message>
    <message>
        <source>Role chunk before the first token: %1</source>
        <translation>首个 token 之前发送角色块：%1</translation>
    </message>
    <message>
        <source>/tokenize available: %1</source>
        <translation>/tokenize 可用：%1</translation>
    </message>
    <message>
        <source>/metrics available: %1</source>
        <translation>/metrics 可用：%1</translation>
    </message>
    <message>
        <source>ignore_eos honoured: %1</source>
        <translation>ignore_eos 生效：%1</translation>
    </message>
    <message>
        <source>No key is stored for this profile yet.</source>
        <translation>此配置尚未保存密钥。</translation>
    </message>
    <message>
        <source>The system keychain is locked or not available.</source>
        <translation>系统密钥环已锁定或不可用。</translation>
    </message>
    <message>
        <source>The system keychain did not answer (it may be waiting for a password prompt).</source>
        <translation>系统密钥环没有响应（可能正在等待输入密码）。</translation>
    </message>
    <message>
        <source>The system keychain reported an error.</source>
        <translation>系统密钥环报告了错误。</translation>
    </message>
    <message>
        <source>Streams end before their end. Every request of a run would fail.</source>
        <translation>流在应有的结尾之前就结束了。运行中的每个请求都会失败。</translation>
    </message>
    <message>
        <source>Responses do not match their Content-Length. Every request of a run would fail.</source>
        <translation>响应与其 Content-Length 不符。运行中的每个请求都会失败。</translation>
    </message>
    <message>
        <source>A stream sent the way a run sends it failed; see the details.</source>
        <translation>按运行方式发送的流失败了，请查看详细信息。</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>The answer came compressed although none was asked for. A run cannot time a compressed stream: turn compression off for this route.</source>
        <translation>应答被压缩了，尽管请求中并未要求压缩。运行无法为压缩的流计时：请为此路由关闭压缩。</translation>
    </message>
    <message>
        <source>The server ignored stream: true and sent the whole answer at once. Time to first token and the gaps between tokens cannot be measured on this route.</source>
        <translation>服务器忽略了 stream: true，一次性发送了完整应答。此路由上无法测量首 token 时间和 token 之间的间隔。</translation>
    </message>
    <message>
        <source>This server answers the %1 API at %2: choose that API (the path follows).</source>
        <translation>此服务器在 %2 应答 %1 API：请选择该 API（路径随之改变）。</translation>
    </message>
    <message>
        <source>The answer is in the %1 API&apos;s format: choose that API.</source>
        <translation>应答为 %1 API 的格式：请选择该 API。</translation>
    </message>
    <message>
        <source>The model list (/v1/models) answered HTTP %1; the key was judged on the API&apos;s own route instead, with its own headers.</source>
        <translation>模型列表（/v1/models）返回 HTTP %1；因此改在该 API 自己的路由上、用其自身的请求头判断密钥。</translation>
    </message>
    <message>
        <source>The stream stopped after its first tokens and sent nothing more in time. A run&apos;s requests would fail on the idle timeout: check the server&apos;s load and any gateway&apos;s buffering.</source>
        <translation>流在发出最初几个 token 后停止，在超时前再无内容。运行中的请求会因空闲超时而失败：请检查服务器负载以及网关的响应缓冲。</translation>
    </message>
    <message>
        <source>The server lists: %1</source>
        <translation>服务器列出的模型：%1</translation>
    </message>
    <message>
        <source>Connection works.</source>
        <translation>连接正常。</translation>
    </message>
    <message>
        <source>Connection test failed.</source>
        <translation>连接测试失败。</translation>
    </message>
</context>
<context>
    <name>OriginWords</name>
    <message numerus="yes">
        <source>The file has no per-request arrays for its %n point(s): only the statistics it gives are stored (no requests, so no bands, scatter or recomputed percentiles).</source>
        <translation>
            <numerusform>该文件的 %n 个点都没有逐请求数组：只保存了文件给出的统计值（没有请求，因此没有分位带、散点图，也无法重算百分位）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The file has no per-request arrays for %1 of its %n point(s): only the statistics it gives are stored for those (no requests, so no bands, scatter or recomputed percentiles).</source>
        <translation>
            <numerusform>该文件的 %n 个点中有 %1 个没有逐请求数组：这些点只保存了文件给出的统计值（没有请求，因此没有分位带、散点图，也无法重算百分位）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported from %1 (%2)</source>
        <translation>导入自 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>Imported from %1 (%2), line(s) %3</source>
        <translation>
            <numerusform>导入自 %1（%2），第 %3 行</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <comment>All other platforms</comment>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>ServeScope::ApiWords</name>
    <message>
        <source>Chat completions</source>
        <translation>Chat completions（对话补全）</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>Completions（文本补全）</translation>
    </message>
    <message>
        <source>Responses (OpenAI)</source>
        <translation>Responses（OpenAI）</translation>
    </message>
    <message>
        <source>Messages (Anthropic)</source>
        <translation>Messages（Anthropic）</translation>
    </message>
    <message>
        <source>SGLang generate</source>
        <translation>SGLang generate（原生）</translation>
    </message>
</context>
<context>
    <name>ServeScope::Capabilities</name>
    <message>
        <source>token counts come from the server&apos;s usage chunk</source>
        <translation>token 数来自服务器的 usage 块</translation>
    </message>
    <message>
        <source>a run counts output tokens with /tokenize of the generated text, else as content events (output-estimated: TPOT and token throughput are wrong when an event carries more or less than one token), and takes input tokens from the prompt&apos;s /tokenize count, else a calibrated estimate (input-estimated)</source>
        <translation>运行时输出 token 数用 /tokenize 对生成文本计数，否则按内容事件计数（output-estimated：一个事件携带的 token 不是一个时，TPOT 和 token 吞吐都会失真）；输入 token 数取提示的 /tokenize 计数，否则取校准估计值（input-estimated）</translation>
    </message>
    <message>
        <source>let usage through: ServeScope always asks for it (stream_options.include_usage); a gateway must forward stream_options and the final usage chunk</source>
        <translation>放行 usage：ServeScope 总会请求它（stream_options.include_usage），网关必须转发 stream_options 和最后的 usage 块</translation>
    </message>
    <message>
        <source>the first event carries only the role: with the vllm definitions TTFT counts it, and a run reports role-chunk-before-token when it leaves before the first token (as some gateways send it)</source>
        <translation>首个事件只带角色：按 vllm 定义 TTFT 会计入它；若它先于首个 token 发出（有些网关如此），运行会报告 role-chunk-before-token</translation>
    </message>
    <message>
        <source>nothing for vLLM itself; behind a gateway compare with the sglang definitions (first text) too</source>
        <translation>vLLM 本身无需处理；在网关之后时，也用 sglang 定义（首个文本）对比一下</translation>
    </message>
    <message>
        <source>the first event carries text: TTFT is the first token under both definitions</source>
        <translation>首个事件就带文本：两种定义下 TTFT 都是首个 token</translation>
    </message>
    <message>
        <source>prompts are sized to each point&apos;s input length with the server&apos;s tokenizer (/tokenize)</source>
        <translation>提示长度用服务器的分词器（/tokenize）对齐到每个负载点的输入长度</translation>
    </message>
    <message>
        <source>text prompts are sized by three max_tokens 1 calibration requests that read usage.prompt_tokens (one word per token when their answers carry no usage: input-length-deviation); output and, without usage, input counts are estimates</source>
        <translation>文本提示通过三个 max_tokens 为 1 的校准请求读取 usage.prompt_tokens 来定长（若回答不带 usage，则按一个词一个 token：input-length-deviation）；输出计数以及无 usage 时的输入计数均为估计值</translation>
    </message>
    <message>
        <source>serve /tokenize under the base URL (vLLM does), or let the non-streaming usage through the gateway</source>
        <translation>在基础 URL 下提供 /tokenize（vLLM 就有），或让网关放行非流式响应中的 usage</translation>
    </message>
    <message>
        <source>after warmup a run waits (at most 10 s) until /metrics reports nothing running before its clock starts</source>
        <translation>预热后运行会等待（最多 10 秒），直到 /metrics 显示没有正在运行的请求再开始计时</translation>
    </message>
    <message>
        <source>a run cannot see the server drain after warmup: the measured clock starts at once, while warmup requests may still be running</source>
        <translation>运行无法看到服务器在预热后排空：测量计时立即开始，而预热请求可能仍在运行</translation>
    </message>
    <message>
        <source>serve the Prometheus /metrics under the base URL (vLLM and SGLang do), or leave warmup out</source>
        <translation>在基础 URL 下提供 Prometheus /metrics（vLLM 和 SGLang 都有），或不做预热</translation>
    </message>
    <message>
        <source>outputs run to the requested length: TPOT and throughput compare across runs</source>
        <translation>输出达到请求的长度：TPOT 和吞吐可以跨运行比较</translation>
    </message>
    <message>
        <source>ignore_eos is dropped or refused: outputs stop at the model&apos;s end of sequence (ignore-eos-not-honoured), or every request fails when the field is refused; TPOT and throughput are not comparable</source>
        <translation>ignore_eos 被丢弃或拒绝：输出在模型的结束符处停止（ignore-eos-not-honoured），或因字段被拒绝导致每个请求都失败；TPOT 和吞吐不可比较</translation>
    </message>
    <message>
        <source>use a server or gateway that passes ignore_eos (vLLM, SGLang; dialect openai-strict never sends it), or set dataset.ignore_eos to false and compare by tokens</source>
        <translation>使用能传递 ignore_eos 的服务器或网关（vLLM、SGLang；openai-strict 接口风格从不发送它），或把 dataset.ignore_eos 设为 false 并按 token 比较</translation>
    </message>
    <message>
        <source>the answer carried no usage: whether outputs reach the requested length is unknown</source>
        <translation>回答不带 usage：无法得知输出是否达到请求的长度</translation>
    </message>
    <message>
        <source>run one short point and look at the output lengths in its result file</source>
        <translation>跑一个短负载点，查看其结果文件中的输出长度</translation>
    </message>
    <message>
        <source>not probed</source>
        <translation>未探测</translation>
    </message>
    <message>
        <source>the stream arrives in blocks, many token events per read: something between client and server buffers it, so a run&apos;s TPOT and ITL would describe that buffer and its TTFT would be late (buffered-stream; those points&apos; TPOT and ITL are marked invalid)</source>
        <translation>流成块到达，每次读取包含多个 token 事件：客户端与服务器之间有环节在缓冲它，运行测得的 TPOT 和 ITL 将描述该缓冲区，TTFT 也会偏晚（buffered-stream；这些负载点的 TPOT 和 ITL 被标记为无效）</translation>
    </message>
    <message>
        <source>turn buffering off for this route (nginx: proxy_buffering off) or measure the server directly</source>
        <translation>为此路由关闭缓冲（nginx：proxy_buffering off），或直接测量服务器</translation>
    </message>
    <message>
        <source>token events arrive as the server sends them: TPOT and ITL are the server&apos;s</source>
        <translation>token 事件按服务器发送的节奏到达：TPOT 和 ITL 反映的是服务器</translation>
    </message>
    <message>
        <source>the answer had too few token events to tell</source>
        <translation>应答中的 token 事件太少，无法判断</translation>
    </message>
</context>
<context>
    <name>ServeScope::CapacityForm</name>
    <message>
        <source>Capacity search</source>
        <translation>容量搜索</translation>
    </message>
    <message>
        <source>Each variant is searched for the largest load that meets every bound below: doubling until a level misses, then refining between the last level that meets and the first that misses.</source>
        <translation>为每个变体搜索满足下列全部上限的最大负载：先逐级加倍，直到某一级不满足，再在最后一个满足的级别与第一个不满足的级别之间细化。</translation>
    </message>
    <message>
        <source>Concurrency (closed loop)</source>
        <translation>并发数（闭环）</translation>
    </message>
    <message>
        <source>Request rate (open loop)</source>
        <translation>请求速率（开环）</translation>
    </message>
    <message>
        <source>Search over</source>
        <translation>搜索对象</translation>
    </message>
    <message>
        <source>Change what the search varies</source>
        <translation>更改搜索变化的量</translation>
    </message>
    <message>
        <source>Bounds</source>
        <translation>上限</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>not required</source>
        <translation>不要求</translation>
    </message>
    <message>
        <source>The share of all requests (failed ones included) that must meet every bound at once.</source>
        <translation>必须同时满足所有上限的请求占全部请求（含失败请求）的比例。</translation>
    </message>
    <message>
        <source>Requests meeting all bounds</source>
        <translation>满足全部上限的请求</translation>
    </message>
    <message>
        <source>Change attainment</source>
        <translation>更改达标比例</translation>
    </message>
    <message>
        <source>First level</source>
        <translation>起始级别</translation>
    </message>
    <message>
        <source>Change first level</source>
        <translation>更改起始级别</translation>
    </message>
    <message>
        <source>Largest level</source>
        <translation>最大级别</translation>
    </message>
    <message>
        <source>Change largest level</source>
        <translation>更改最大级别</translation>
    </message>
    <message>
        <source>The search ends when the level that meets and the one that misses are this close.</source>
        <translation>当满足的级别与不满足的级别相差在此范围内时，搜索结束。</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>分辨率</translation>
    </message>
    <message>
        <source>Change resolution</source>
        <translation>更改分辨率</translation>
    </message>
    <message>
        <source>At most, levels</source>
        <translation>最多级别数</translation>
    </message>
    <message>
        <source>Change the cap on levels</source>
        <translation>更改级别数上限</translation>
    </message>
    <message>
        <source>A level whose interval straddles a bound is measured again, up to this many times.</source>
        <translation>若某一级别的区间跨越上限，会再次测量，最多测量这么多次。</translation>
    </message>
    <message>
        <source>At most, measurements of a level</source>
        <translation>每个级别最多测量次数</translation>
    </message>
    <message>
        <source>Change the cap on repeats</source>
        <translation>更改重复次数上限</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Time cap per variant</source>
        <translation>每个变体的时间上限</translation>
    </message>
    <message>
        <source>Change the time cap</source>
        <translation>更改时间上限</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>输入 token 数</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>更改%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Closed loop: a level sends at least this many prompts per concurrent request.</source>
        <translation>闭环：每个级别按每个并发请求至少发送这么多提示。</translation>
    </message>
    <message>
        <source>Prompts per concurrent request</source>
        <translation>每个并发请求的提示数</translation>
    </message>
    <message>
        <source>Change prompts per level</source>
        <translation>更改每级提示数</translation>
    </message>
    <message>
        <source>Time limit per level</source>
        <translation>每级时间上限</translation>
    </message>
    <message>
        <source>Change time limit per level</source>
        <translation>更改每级时间上限</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Percentile</source>
        <translation>百分位</translation>
    </message>
    <message>
        <source>At most</source>
        <translation>不超过</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>TTFO (reasoning models)</source>
        <translation>TTFO（推理模型）</translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>ITL</translation>
    </message>
    <message>
        <source>E2E latency</source>
        <translation>端到端延迟</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>no bound</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Change the %1 percentile</source>
        <translation>更改 %1 的百分位</translation>
    </message>
    <message>
        <source>Change the %1 bound</source>
        <translation>更改 %1 的上限</translation>
    </message>
    <message>
        <source>Prompts per level, at least</source>
        <translation>每级至少提示数</translation>
    </message>
</context>
<context>
    <name>ServeScope::Cli</name>
    <message>
        <source>--header needs &apos;Name: value&apos; with a valid header name</source>
        <translation>--header 需要“名称: 值”的形式，且名称必须是合法的头部名</translation>
    </message>
    <message>
        <source>--header-env needs Name=VAR with a valid header name</source>
        <translation>--header-env 需要 名称=变量 的形式，且名称必须是合法的头部名</translation>
    </message>
    <message>
        <source>--header-env %1 must name an environment variable ([A-Za-z_][A-Za-z0-9_]*), not hold its value</source>
        <translation>--header-env %1 应当给出环境变量名（[A-Za-z_][A-Za-z0-9_]*），而不是它的值</translation>
    </message>
    <message>
        <source>send the key with --api-key-env, not as an Authorization header</source>
        <translation>请用 --api-key-env 传递密钥，不要写成 Authorization 头部</translation>
    </message>
    <message>
        <source>header %1 is given twice</source>
        <translation>头部 %1 重复给出</translation>
    </message>
    <message>
        <source>Checks that an endpoint is usable for a benchmark.</source>
        <translation>检查端点能否用于基准测试。</translation>
    </message>
    <message>
        <source>Base URL, e.g. http://127.0.0.1:8000</source>
        <translation>Base URL，例如 http://127.0.0.1:8000</translation>
    </message>
    <message>
        <source>Model ID</source>
        <translation>模型 ID</translation>
    </message>
    <message>
        <source>Environment variable holding the API key</source>
        <translation>存放 API 密钥的环境变量</translation>
    </message>
    <message>
        <source>Seconds per request (default 15)</source>
        <translation>每个请求的超时秒数（默认 15）</translation>
    </message>
    <message>
        <source>Extra header on every request, &apos;Name: value&apos; (repeatable)</source>
        <translation>每个请求附加的头部，“名称: 值”（可重复）</translation>
    </message>
    <message>
        <source>Extra header whose value is a secret read from an environment variable, Name=VAR (repeatable)</source>
        <translation>附加头部，其值是从环境变量读取的机密，名称=变量（可重复）</translation>
    </message>
    <message>
        <source>https: trust the certificate authorities in this PEM file</source>
        <translation>https：信任此 PEM 文件中的证书颁发机构</translation>
    </message>
    <message>
        <source>https: do not check the server&apos;s certificate</source>
        <translation>https：不校验服务器证书</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>多余的参数“%1”</translation>
    </message>
    <message>
        <source>--base-url and --model are required</source>
        <translation>必须给出 --base-url 和 --model</translation>
    </message>
    <message>
        <source>--timeout must be a positive number of seconds</source>
        <translation>--timeout 必须是正的秒数</translation>
    </message>
    <message>
        <source>whitespace around the API key was trimmed</source>
        <translation>已去掉 API 密钥首尾的空白</translation>
    </message>
    <message>
        <source>Check an endpoint: models, one streamed request, diagnosis</source>
        <translation>检查端点：模型列表、一个流式请求、诊断</translation>
    </message>
    <message>
        <source>Compares a candidate run with a baseline point by point (medians across repeats, 95% intervals) and, with --fail-if, gates on the changes. RUN is a run id or unique name of --project; DIR is a results folder written by `run --out-dir`.</source>
        <translation>逐个负载点比较候选运行与基线运行（各重复的中位数，95% 区间），并可用 --fail-if 按变化设闸。RUN 是 --project 中的运行 ID 或唯一名称；DIR 是 `run --out-dir` 写出的结果目录。</translation>
    </message>
    <message>
        <source>Baseline run or results folder</source>
        <translation>基线运行或结果目录</translation>
    </message>
    <message>
        <source>Candidate run or results folder</source>
        <translation>候选运行或结果目录</translation>
    </message>
    <message>
        <source>Project file holding stored runs</source>
        <translation>存放已保存运行的项目文件</translation>
    </message>
    <message>
        <source>Compare only this variant of the baseline</source>
        <translation>只比较基线的这个变体</translation>
    </message>
    <message>
        <source>Compare only this variant of the candidate</source>
        <translation>只比较候选的这个变体</translation>
    </message>
    <message>
        <source>Metric of the delta table (repeatable; default: headline metrics)</source>
        <translation>差异表中的指标（可重复；默认：主要指标）</translation>
    </message>
    <message>
        <source>Gate: METRIC (&gt;|&lt;) [+|-]NUMBER[%] (repeatable)</source>
        <translation>闸门：METRIC (&gt;|&lt;) [+|-]NUMBER[%]（可重复）</translation>
    </message>
    <message>
        <source>Practical threshold of a better/worse verdict, in % (default 5)</source>
        <translation>判定变好/变差的实际阈值，单位 %（默认 5）</translation>
    </message>
    <message>
        <source>Write one JUnit test case per point and condition</source>
        <translation>为每个负载点和条件写一个 JUnit 测试用例</translation>
    </message>
    <message>
        <source>Result set compared: vllm (every measured request) or steady (the steady window)</source>
        <translation>比较的结果集：vllm（全部测量请求）或 steady（稳态窗口）</translation>
    </message>
    <message>
        <source>Print JSON instead of lines</source>
        <translation>输出 JSON 而不是文本行</translation>
    </message>
    <message>
        <source>--baseline and --candidate are required</source>
        <translation>必须给出 --baseline 和 --candidate</translation>
    </message>
    <message>
        <source>--threshold takes a percentage &gt;= 0</source>
        <translation>--threshold 需要一个 &gt;= 0 的百分比</translation>
    </message>
    <message>
        <source>--set takes vllm or steady</source>
        <translation>--set 只接受 vllm 或 steady</translation>
    </message>
    <message>
        <source>baseline: %1</source>
        <translation>基线：%1</translation>
    </message>
    <message>
        <source>candidate: %1</source>
        <translation>候选：%1</translation>
    </message>
    <message>
        <source>%1: no point has a valid steady window (its slots were never all busy)</source>
        <translation>%1：没有任何负载点有有效的稳态窗口（其并发槽从未全部占满）</translation>
    </message>
    <message>
        <source>--%1: no variant named &apos;%2&apos;</source>
        <translation>--%1：没有名为“%2”的变体</translation>
    </message>
    <message>
        <source>baseline point %1/%2 has no match in the candidate</source>
        <translation>基线负载点 %1/%2 在候选中没有对应</translation>
    </message>
    <message>
        <source>candidate point %1/%2 has no match in the baseline</source>
        <translation>候选负载点 %1/%2 在基线中没有对应</translation>
    </message>
    <message>
        <source>metric &apos;%1&apos; is in neither run&apos;s results</source>
        <translation>两个运行的结果中都没有指标“%1”</translation>
    </message>
    <message>
        <source>%1: %2 is missing at point %3/%4</source>
        <translation>%1：负载点 %3/%4 缺少 %2</translation>
    </message>
    <message>
        <source>not reproducible at this point: %1</source>
        <translation>此负载点不可复现：%1</translation>
    </message>
    <message>
        <source>--junit: %1</source>
        <translation>--junit：%1</translation>
    </message>
    <message>
        <source>Compare two runs point by point; gate a candidate on a baseline</source>
        <translation>逐个负载点比较两个运行；以基线为准给候选设闸</translation>
    </message>
    <message>
        <source>Project file (*.servescope)</source>
        <translation>项目文件（*.servescope）</translation>
    </message>
    <message>
        <source>Run: numeric id or unique name</source>
        <translation>运行：数字 ID 或唯一名称</translation>
    </message>
    <message>
        <source>Second run drawn on the same axes (B)</source>
        <translation>画在同一坐标轴上的第二个运行（B）</translation>
    </message>
    <message>
        <source>Write a chart: .png, .svg or .pdf</source>
        <translation>写出图表：.png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>Chart size WxH in px/pt (default 1000x620)</source>
        <translation>图表尺寸 WxH，单位 px/pt（默认 1000x620）</translation>
    </message>
    <message>
        <source>PNG pixel scale (default 1)</source>
        <translation>PNG 像素倍率（默认 1）</translation>
    </message>
    <message>
        <source>Write per-point metrics as CSV</source>
        <translation>把逐负载点的指标写成 CSV</translation>
    </message>
    <message>
        <source>Write a report: .html or .pdf</source>
        <translation>写出报告：.html 或 .pdf</translation>
    </message>
    <message>
        <source>Write SGLang&apos;s bench_serving JSON lines (sglang definitions, one line per point)</source>
        <translation>写出 SGLang bench_serving 的 JSON 行（SGLang 定义，每个负载点一行）</translation>
    </message>
    <message>
        <source>--project FILE and --run RUN are required</source>
        <translation>必须给出 --project FILE 和 --run RUN</translation>
    </message>
    <message>
        <source>--metric applies to --chart only</source>
        <translation>--metric 只用于 --chart</translation>
    </message>
    <message>
        <source>--chart file must end in .png, .svg or .pdf</source>
        <translation>--chart 文件必须以 .png、.svg 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>--report file must end in .html or .pdf</source>
        <translation>--report 文件必须以 .html 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>--size must be WxH, e.g. 1200x750</source>
        <translation>--size 必须是 WxH，例如 1200x750</translation>
    </message>
    <message>
        <source>--scale must be a number in (0, 8]</source>
        <translation>--scale 必须是 (0, 8] 之间的数</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export charts, CSV or a report of stored runs</source>
        <translation>导出已保存运行的图表、CSV 或报告</translation>
    </message>
    <message>
        <source>Prints one load point of an experiment as the command that replays it with vLLM&apos;s or SGLang&apos;s benchmark client. The key goes through OPENAI_API_KEY (set from the experiment&apos;s key variable), never its value. `import-command` reads the output back.</source>
        <translation>把实验的一个负载点打印成用 vLLM 或 SGLang 基准客户端重放它的命令。密钥通过 OPENAI_API_KEY 传递（由实验的密钥变量设置），从不写出其值。`import-command` 可以把输出读回来。</translation>
    </message>
    <message>
        <source>Experiment file (JSON or TOML).</source>
        <translation>实验文件（JSON 或 TOML）。</translation>
    </message>
    <message>
        <source>Load point label (default: the first)</source>
        <translation>负载点标签（默认：第一个）</translation>
    </message>
    <message>
        <source>Variant (default: the baseline)</source>
        <translation>变体（默认：基线）</translation>
    </message>
    <message>
        <source>vllm (vllm bench serve) or sglang (python -m sglang.bench_serving)</source>
        <translation>vllm（vllm bench serve）或 sglang（python -m sglang.bench_serving）</translation>
    </message>
    <message>
        <source>expected one EXPERIMENT file</source>
        <translation>需要恰好一个 EXPERIMENT 文件</translation>
    </message>
    <message>
        <source>--tool takes vllm or sglang</source>
        <translation>--tool 只接受 vllm 或 sglang</translation>
    </message>
    <message>
        <source>no variant named &apos;%1&apos;</source>
        <translation>没有名为“%1”的变体</translation>
    </message>
    <message>
        <source>no load point labelled &apos;%1&apos;</source>
        <translation>没有标签为“%1”的负载点</translation>
    </message>
    <message>
        <source>the experiment has no load point</source>
        <translation>实验没有负载点</translation>
    </message>
    <message>
        <source>Print a load point as a vllm bench serve or sglang.bench_serving command</source>
        <translation>把一个负载点打印成 vllm bench serve 或 sglang.bench_serving 命令</translation>
    </message>
    <message>
        <source>Writes the prompts one load point of a stored run sent, in the order it sent them, as vLLM&apos;s custom dataset (STEM.jsonl: prompt and output_tokens per line) and as a ShareGPT file for SGLang (STEM.sharegpt.json), and prints the vllm bench serve and sglang.bench_serving commands that replay them.</source>
        <translation>按发送顺序写出已保存运行中一个负载点发送过的提示：vLLM 的 custom 数据集（STEM.jsonl：每行 prompt 和 output_tokens）和给 SGLang 的 ShareGPT 文件（STEM.sharegpt.json），并打印重放它们的 vllm bench serve 和 sglang.bench_serving 命令。</translation>
    </message>
    <message>
        <source>Repeat, from 1 (default 1)</source>
        <translation>第几次重复，从 1 开始（默认 1）</translation>
    </message>
    <message>
        <source>Folder for the two files (created if missing)</source>
        <translation>存放这两个文件的目录（不存在则创建）</translation>
    </message>
    <message>
        <source>--project FILE, --run RUN and --out-dir DIR are required</source>
        <translation>必须给出 --project FILE、--run RUN 和 --out-dir DIR</translation>
    </message>
    <message>
        <source>--repeat must be a whole number from 1</source>
        <translation>--repeat 必须是从 1 起的整数</translation>
    </message>
    <message>
        <source>run %1 has no load point labelled &apos;%2&apos;</source>
        <translation>运行 %1 没有标签为“%2”的负载点</translation>
    </message>
    <message>
        <source>Write a stored point&apos;s exact prompts as datasets vllm bench serve and sglang.bench_serving replay</source>
        <translation>把已保存负载点的原样提示写成 vllm bench serve 和 sglang.bench_serving 可重放的数据集</translation>
    </message>
    <message>
        <source>Project file to import into (created when missing).</source>
        <translation>要导入的项目文件（不存在则创建）。</translation>
    </message>
    <message>
        <source>Recompute every statistic from the per-request arrays.</source>
        <translation>根据逐请求数组重新计算每个统计量。</translation>
    </message>
    <message>
        <source>expected FILE... and --project P</source>
        <translation>需要 FILE... 和 --project P</translation>
    </message>
    <message>
        <source>Turns a server launch (vllm serve, python -m vllm.entrypoints.openai.api_server, python -m
sglang.launch_server), a benchmark command (vllm bench serve, python benchmark_serving.py, python -m
sglang.bench_serving) or a list of SGLang flags into an experiment; prints its JSON or writes --out.
Exit 0 when read (warnings on stderr), 2 when nothing could be imported.</source>
        <translation>把服务器启动命令（vllm serve、python -m vllm.entrypoints.openai.api_server、python -m
sglang.launch_server）、基准命令（vllm bench serve、python benchmark_serving.py、python -m
sglang.bench_serving）或一组 SGLang 参数转换成实验；打印其 JSON 或写入 --out。
读取成功时退出码 0（警告输出到 stderr），什么都无法导入时为 2。</translation>
    </message>
    <message>
        <source>Shell snippet, or - for standard input.</source>
        <translation>Shell 片段，或用 - 表示标准输入。</translation>
    </message>
    <message>
        <source>Write the experiment JSON to FILE.</source>
        <translation>把实验 JSON 写入 FILE。</translation>
    </message>
    <message>
        <source>expected one FILE (or -)</source>
        <translation>需要恰好一个 FILE（或 -）</translation>
    </message>
    <message>
        <source>larger than %1 bytes</source>
        <translation>大于 %1 字节</translation>
    </message>
    <message>
        <source>Turn a server or benchmark command line into an experiment</source>
        <translation>把服务器或基准命令行转换成实验</translation>
    </message>
    <message>
        <source>the endpoint&apos;s key is in a keychain entry, which a pod does not have; name an environment variable with endpoint.api_key_env instead</source>
        <translation>端点的密钥在钥匙串条目中，而 Pod 里没有钥匙串；请改用 endpoint.api_key_env 指定环境变量</translation>
    </message>
    <message>
        <source>the experiment reads %1 from the environment: give --secret NAME, a Secret with a key of each of those names</source>
        <translation>实验从环境中读取 %1：请给出 --secret NAME，即一个以这些名称为键的 Secret</translation>
    </message>
    <message>
        <source>--secret %1: the experiment reads no key or secret header from the environment</source>
        <translation>--secret %1：实验并不从环境中读取任何密钥或机密头部</translation>
    </message>
    <message>
        <source>--shards must be a whole number of at least 1</source>
        <translation>--shards 必须是不小于 1 的整数</translation>
    </message>
    <message>
        <source>--image, --results-claim and --start-at are required</source>
        <translation>必须给出 --image、--results-claim 和 --start-at</translation>
    </message>
    <message>
        <source>Prints a Kubernetes Indexed Job (YAML) that runs the experiment&apos;s N shards as pods from one start time.</source>
        <translation>打印一个 Kubernetes Indexed Job（YAML），从同一开始时间以 Pod 运行实验的 N 个分片。</translation>
    </message>
    <message>
        <source>Experiment file (JSON or TOML)</source>
        <translation>实验文件（JSON 或 TOML）</translation>
    </message>
    <message>
        <source>Number of shards (pods)</source>
        <translation>分片（Pod）数</translation>
    </message>
    <message>
        <source>Container image with servescope-cli on its PATH</source>
        <translation>PATH 中带有 servescope-cli 的容器镜像</translation>
    </message>
    <message>
        <source>UTC start of the first point (ISO-8601 with a zone, or now+SECONDS resolved now)</source>
        <translation>第一个负载点的 UTC 开始时间（带时区的 ISO-8601，或 now+秒数，立即解析）</translation>
    </message>
    <message>
        <source>Every pod&apos;s run --point-slot: measured point k starts at --start-at plus k x SECONDS</source>
        <translation>每个 Pod 的 run --point-slot：第 k 个测量负载点在 --start-at 加 k × 秒数时开始</translation>
    </message>
    <message>
        <source>PersistentVolumeClaim mounted at /results for the shards&apos; project files</source>
        <translation>挂载在 /results、存放各分片项目文件的 PersistentVolumeClaim</translation>
    </message>
    <message>
        <source>Namespace of the Job and its ConfigMap</source>
        <translation>Job 及其 ConfigMap 所在的命名空间</translation>
    </message>
    <message>
        <source>Secret with the experiment&apos;s key variables as keys</source>
        <translation>以实验的密钥变量为键的 Secret</translation>
    </message>
    <message>
        <source>Print the manifest as JSON (also valid YAML) instead</source>
        <translation>改为以 JSON 打印清单（也是合法的 YAML）</translation>
    </message>
    <message>
        <source>%1 is not a runnable experiment</source>
        <translation>%1 不是可运行的实验</translation>
    </message>
    <message>
        <source>Print a Kubernetes Indexed Job that runs an experiment&apos;s shards</source>
        <translation>打印运行实验各分片的 Kubernetes Indexed Job</translation>
    </message>
    <message>
        <source>Merges the shard runs of one sharded load (run --shard I/N), one PROJECT file per shard, into one run.</source>
        <translation>把一次分片负载（run --shard I/N）的各分片运行合并成一个运行，每个分片一个 PROJECT 文件。</translation>
    </message>
    <message>
        <source>A shard&apos;s project file</source>
        <translation>一个分片的项目文件</translation>
    </message>
    <message>
        <source>Project file to write the merged run into</source>
        <translation>写入合并后运行的项目文件</translation>
    </message>
    <message>
        <source>The shard run in each PROJECT, in order (repeat once per PROJECT; default: its latest)</source>
        <translation>每个 PROJECT 中的分片运行，按顺序（每个 PROJECT 给一次；默认：其最新的运行）</translation>
    </message>
    <message>
        <source>Merged run name (default: experiment, shard count, start)</source>
        <translation>合并后运行的名称（默认：实验、分片数、开始时间）</translation>
    </message>
    <message>
        <source>expected PROJECT... and --project FILE</source>
        <translation>需要 PROJECT... 和 --project FILE</translation>
    </message>
    <message>
        <source>--run is given %1 times for %2 projects; give it once per PROJECT or not at all</source>
        <translation>--run 给了 %1 次，而项目有 %2 个；请每个 PROJECT 给一次，或者都不给</translation>
    </message>
    <message>
        <source>Merge the shard runs of a sharded load into one run</source>
        <translation>把一次分片负载的各分片运行合并成一个运行</translation>
    </message>
    <message>
        <source>Publishes a stored run to the team database in one transaction and prints its stable id. Publishing the same run again stores nothing new but its tags.</source>
        <translation>在一个事务中把已保存的运行发布到团队数据库，并打印其稳定 ID。再次发布同一运行只会保存新的标签。</translation>
    </message>
    <message>
        <source>Project file holding the run</source>
        <translation>存放该运行的项目文件</translation>
    </message>
    <message>
        <source>Run id or unique name</source>
        <translation>运行 ID 或唯一名称</translation>
    </message>
    <message>
        <source>A tag to list the run by (repeatable)</source>
        <translation>用于检索该运行的标签（可重复）</translation>
    </message>
    <message>
        <source>a tag is 1 to 64 characters without spaces or control characters</source>
        <translation>标签须为 1 到 64 个字符，不含空格或控制字符</translation>
    </message>
    <message>
        <source>run %1 was published before as %2; nothing new stored</source>
        <translation>运行 %1 之前已发布为 %2；没有保存新内容</translation>
    </message>
    <message>
        <source>run %1 was published before as %2; nothing new stored but its tags</source>
        <translation>运行 %1 之前已发布为 %2；除标签外没有保存新内容</translation>
    </message>
    <message>
        <source>run %1 published as %2: %3 requests in %4 s</source>
        <translation>运行 %1 已发布为 %2：%4 秒内写入 %3 个请求</translation>
    </message>
    <message>
        <source>Publish a stored run to the team database (PostgreSQL)</source>
        <translation>把已保存的运行发布到团队数据库（PostgreSQL）</translation>
    </message>
    <message>
        <source>Copies a published run into a project file as a local run and prints its local id. A run the project holds already (same stable id) is not copied again.</source>
        <translation>把已发布的运行作为本地运行复制到项目文件中，并打印其本地 ID。项目中已有的运行（稳定 ID 相同）不会再次复制。</translation>
    </message>
    <message>
        <source>Published run id (or a unique prefix of 8+ hex digits)</source>
        <translation>已发布运行的 ID（或至少 8 位十六进制的唯一前缀）</translation>
    </message>
    <message>
        <source>Project file to copy it into (created when missing)</source>
        <translation>复制到的项目文件（不存在则创建）</translation>
    </message>
    <message>
        <source>--run ID and --project FILE are required</source>
        <translation>必须给出 --run ID 和 --project FILE</translation>
    </message>
    <message>
        <source>%1 holds published run %2 already as run %3</source>
        <translation>%1 中已有已发布运行 %2，即运行 %3</translation>
    </message>
    <message>
        <source>published run %1 copied into %2 as run %3 (%4 requests)</source>
        <translation>已发布运行 %1 已复制到 %2，成为运行 %3（%4 个请求）</translation>
    </message>
    <message>
        <source>Copy a published run from the team database into a project</source>
        <translation>把团队数据库中已发布的运行复制到项目</translation>
    </message>
    <message>
        <source>first: %1</source>
        <translation>首条：%1</translation>
    </message>
    <message>
        <source>%1 holds no environment snapshot</source>
        <translation>%1 中没有环境快照</translation>
    </message>
    <message>
        <source>--shard and --start-at go together</source>
        <translation>--shard 和 --start-at 必须一起给出</translation>
    </message>
    <message>
        <source>--point-slot needs --shard and --start-at</source>
        <translation>--point-slot 需要 --shard 和 --start-at</translation>
    </message>
    <message>
        <source>Runs an experiment: every variant through every point and repeat.</source>
        <translation>运行实验：每个变体依次跑完每个负载点和每次重复。</translation>
    </message>
    <message>
        <source>Run only this variant (repeatable)</source>
        <translation>只运行这个变体（可重复）</translation>
    </message>
    <message>
        <source>Project file (default: EXPERIMENT with .servescope)</source>
        <translation>项目文件（默认：EXPERIMENT 改为 .servescope 扩展名）</translation>
    </message>
    <message>
        <source>Results folder: manifest, vLLM result files, summary.csv</source>
        <translation>结果目录：清单、vLLM 结果文件、summary.csv</translation>
    </message>
    <message>
        <source>Start each variant&apos;s server from server.launch.argv (stopped after it)</source>
        <translation>按 server.launch.argv 启动每个变体的服务器（变体结束后停止）</translation>
    </message>
    <message>
        <source>Speed-up of the built-in simulator for a &quot;sim:&quot; endpoint</source>
        <translation>“sim:” 端点内置模拟器的加速倍数</translation>
    </message>
    <message>
        <source>Run name (default: experiment name and UTC time)</source>
        <translation>运行名称（默认：实验名称加 UTC 时间）</translation>
    </message>
    <message>
        <source>Send the requests here instead (&quot;sim:&quot; for the built-in simulator)</source>
        <translation>改把请求发往这里（“sim:” 表示内置模拟器）</translation>
    </message>
    <message>
        <source>Record this environment snapshot file with the run (fields replace same-named ones)</source>
        <translation>随运行记录此环境快照文件（同名字段会被替换）</translation>
    </message>
    <message>
        <source>Run shard I of N (0-based) of every point&apos;s streams and prompts (docs/shards.md)</source>
        <translation>运行每个负载点的并发流和提示中的第 I 个分片（共 N 个，从 0 起；见 docs/shards.md）</translation>
    </message>
    <message>
        <source>With --shard: the UTC time the first point starts (ISO-8601 with a zone, or now+SECONDS)</source>
        <translation>与 --shard 一起用：第一个负载点开始的 UTC 时间（带时区的 ISO-8601，或 now+秒数）</translation>
    </message>
    <message>
        <source>With --shard: measured point k (run order, from 0) starts at --start-at plus k x SECONDS</source>
        <translation>与 --shard 一起用：第 k 个测量负载点（按运行顺序，从 0 起）在 --start-at 加 k × 秒数时开始</translation>
    </message>
    <message>
        <source>After the run, check point by point that it agrees within 5% with this stored run of the project</source>
        <translation>运行结束后逐个负载点检查它与项目中这个已保存运行的差异是否在 5% 以内</translation>
    </message>
    <message>
        <source>--sim-time-scale must be a positive number</source>
        <translation>--sim-time-scale 必须是正数</translation>
    </message>
    <message>
        <source>%1 holds only an environment snapshot; record it with a run: run EXPERIMENT --env-snapshot %1</source>
        <translation>%1 只包含环境快照；请随运行记录它：run EXPERIMENT --env-snapshot %1</translation>
    </message>
    <message>
        <source>not running the experiment&apos;s launch command without --allow-launch; start the server yourself</source>
        <translation>没有 --allow-launch 时不会执行实验的启动命令；请自行启动服务器</translation>
    </message>
    <message>
        <source>interrupted; saving what was measured...</source>
        <translation>已中断；正在保存已测量的数据……</translation>
    </message>
    <message>
        <source>Run an experiment into a project (and a results folder)</source>
        <translation>把实验运行到项目中（以及结果目录）</translation>
    </message>
    <message>
        <source>--%1 takes YYYY-MM-DD (UTC) or an ISO-8601 time with a zone</source>
        <translation>--%1 需要 YYYY-MM-DD（UTC）或带时区的 ISO-8601 时间</translation>
    </message>
    <message>
        <source>Lists the runs of a project file: id, name, status, started (ISO-8601 UTC), variants, points; or with --db the published runs: id, name, status, started, experiment, model, engine, tags, variants, points, requests, published_by; tab-separated.</source>
        <translation>列出项目文件中的运行：ID、名称、状态、开始时间（ISO-8601 UTC）、变体、负载点；或用 --db 列出已发布的运行：ID、名称、状态、开始时间、实验、模型、引擎、标签、变体、负载点、请求数、发布者；制表符分隔。</translation>
    </message>
    <message>
        <source>Print a JSON array instead of lines</source>
        <translation>输出 JSON 数组而不是文本行</translation>
    </message>
    <message>
        <source>With --db: only runs of this experiment</source>
        <translation>与 --db 一起用：只列这个实验的运行</translation>
    </message>
    <message>
        <source>With --db: only runs against this model</source>
        <translation>与 --db 一起用：只列针对这个模型的运行</translation>
    </message>
    <message>
        <source>With --db: only runs of this engine (vllm, sglang, ...)</source>
        <translation>与 --db 一起用：只列这个引擎的运行（vllm、sglang……）</translation>
    </message>
    <message>
        <source>With --db: started on or after (YYYY-MM-DD or ISO-8601 time)</source>
        <translation>与 --db 一起用：在此时间或之后开始（YYYY-MM-DD 或 ISO-8601 时间）</translation>
    </message>
    <message>
        <source>With --db: started on or before (YYYY-MM-DD or ISO-8601 time)</source>
        <translation>与 --db 一起用：在此时间或之前开始（YYYY-MM-DD 或 ISO-8601 时间）</translation>
    </message>
    <message>
        <source>With --db: only runs with this tag (repeatable: all of them)</source>
        <translation>与 --db 一起用：只列带这个标签的运行（可重复：须全部带有）</translation>
    </message>
    <message>
        <source>give either --project FILE or --db URL, not both</source>
        <translation>--project FILE 和 --db URL 只能给出一个</translation>
    </message>
    <message>
        <source>--project FILE is required (or --db URL for the team database)</source>
        <translation>必须给出 --project FILE（或团队数据库的 --db URL）</translation>
    </message>
    <message>
        <source>--%1 needs --db URL</source>
        <translation>--%1 需要 --db URL</translation>
    </message>
    <message>
        <source>List the runs stored in a project file</source>
        <translation>列出项目文件中保存的运行</translation>
    </message>
    <message>
        <source>--root-path needs a path such as /gw</source>
        <translation>--root-path 需要一个路径，例如 /gw</translation>
    </message>
    <message>
        <source>--require-header needs &apos;Name: value&apos; with a valid header name</source>
        <translation>--require-header 需要“名称: 值”的形式，且名称必须是合法的头部名</translation>
    </message>
    <message>
        <source>Address to listen on (default 127.0.0.1).</source>
        <translation>监听地址（默认 127.0.0.1）。</translation>
    </message>
    <message>
        <source>Model ID served (default servescope-sim-7b).</source>
        <translation>提供的模型 ID（默认 servescope-sim-7b）。</translation>
    </message>
    <message>
        <source>Serve HTTPS with this PEM certificate (with --tls-key).</source>
        <translation>用此 PEM 证书提供 HTTPS（与 --tls-key 一起用）。</translation>
    </message>
    <message>
        <source>PEM private key of --tls-cert (unencrypted).</source>
        <translation>--tls-cert 的 PEM 私钥（未加密）。</translation>
    </message>
    <message>
        <source>Require `Authorization: Bearer &lt;key&gt;` on /v1, the key read from this environment variable.</source>
        <translation>要求 /v1 请求带 `Authorization: Bearer &lt;key&gt;`，密钥从这个环境变量读取。</translation>
    </message>
    <message>
        <source>Hardware/model preset: a100-7b (default), h100-7b, moe-3b-active.</source>
        <translation>硬件/模型预设：a100-7b（默认）、h100-7b、moe-3b-active。</translation>
    </message>
    <message>
        <source>Send the role-only chat delta on arrival (as some gateways).</source>
        <translation>请求到达时就发送只含 role 的聊天增量（如某些网关）。</translation>
    </message>
    <message>
        <source>Never send the usage chunk.</source>
        <translation>从不发送 usage 块。</translation>
    </message>
    <message>
        <source>Stop at the seeded EOS point even with ignore_eos.</source>
        <translation>即使设置了 ignore_eos 也在预设的 EOS 位置停止。</translation>
    </message>
    <message>
        <source>Write `: t=&lt;monotonic ns&gt;` before every data event.</source>
        <translation>在每个 data 事件前写出 `: t=&lt;单调时钟 ns&gt;`。</translation>
    </message>
    <message>
        <source>Answer /tokenize with 404 (most gateways).</source>
        <translation>对 /tokenize 返回 404（大多数网关如此）。</translation>
    </message>
    <message>
        <source>Answer /metrics with 404.</source>
        <translation>对 /metrics 返回 404。</translation>
    </message>
    <message>
        <source>Answer /v1/completions with 404 (a chat-only gateway).</source>
        <translation>对 /v1/completions 返回 404（只支持 chat 的网关）。</translation>
    </message>
    <message>
        <source>Start every answer with the prompt text.</source>
        <translation>每个回答以提示文本开头。</translation>
    </message>
    <message>
        <source>Answer 400 to any request without this exact header (repeatable).</source>
        <translation>缺少这个确切头部的请求一律返回 400（可重复）。</translation>
    </message>
    <message>
        <source>Serve every route under this path prefix, e.g. /gw (as behind a gateway); 404 elsewhere.</source>
        <translation>所有路由都挂在这个路径前缀下，例如 /gw（如同在网关之后）；其他路径返回 404。</translation>
    </message>
    <message>
        <source>Drop ignore_eos and min_tokens from every request, as a strict gateway.</source>
        <translation>从每个请求中去掉 ignore_eos 和 min_tokens，如同严格的网关。</translation>
    </message>
    <message>
        <source>Close every stream&apos;s connection after half of its tokens.</source>
        <translation>每个流在发出一半 token 后关闭连接。</translation>
    </message>
    <message>
        <source>Send generation answers unchunked with content-length: 256, whatever their length.</source>
        <translation>生成类回答一律不分块、以 content-length: 256 发送，无论实际长度。</translation>
    </message>
    <message>
        <source>Simulated vLLM- or SGLang-like OpenAI-compatible server.</source>
        <translation>模拟 vLLM 或 SGLang 的 OpenAI 兼容服务器。</translation>
    </message>
    <message>
        <source>unknown preset &apos;%1&apos; (known: %2)</source>
        <translation>未知预设“%1”（可用：%2）</translation>
    </message>
    <message>
        <source>--%1 needs a number &gt;= %2, got &apos;%3&apos;</source>
        <translation>--%1 需要 &gt;= %2 的数，得到的是“%3”</translation>
    </message>
    <message>
        <source>--port must be 0..65535</source>
        <translation>--port 必须在 0..65535 之间</translation>
    </message>
    <message>
        <source>--tls-cert and --tls-key go together</source>
        <translation>--tls-cert 和 --tls-key 必须一起给出</translation>
    </message>
    <message>
        <source>rates must be between 0 and 1</source>
        <translation>比率必须在 0 到 1 之间</translation>
    </message>
    <message>
        <source>--max-model-len (%1) exceeds --kv-cache-tokens (%2): a long request could never run</source>
        <translation>--max-model-len（%1）超过 --kv-cache-tokens（%2）：长请求将永远无法运行</translation>
    </message>
    <message>
        <source>--api-key-env: %1</source>
        <translation>--api-key-env：%1</translation>
    </message>
    <message>
        <source>cannot create the signal pipe</source>
        <translation>无法创建信号管道</translation>
    </message>
    <message>
        <source>Run the simulated OpenAI-compatible server</source>
        <translation>运行模拟的 OpenAI 兼容服务器</translation>
    </message>
    <message>
        <source>Check an experiment file (native JSON, bench_config.json, or either TOML layout) and show each
variant&apos;s differences from the baseline. Exit 0 when valid (warnings allowed), 2 when the file
is malformed or invalid.</source>
        <translation>检查实验文件（原生 JSON、bench_config.json 或两种 TOML 布局之一），并显示每个
变体与基线的差异。有效时退出码 0（允许警告），文件格式错误或无效时为 2。</translation>
    </message>
    <message>
        <source>Force a layout: json, bench_config, toml-load-matrix, toml-bench, env-snapshot (default: auto).</source>
        <translation>强制指定布局：json、bench_config、toml-load-matrix、toml-bench、env-snapshot（默认：auto）。</translation>
    </message>
    <message>
        <source>Experiment file (.json or .toml).</source>
        <translation>实验文件（.json 或 .toml）。</translation>
    </message>
    <message>
        <source>unknown --format &apos;%1&apos;</source>
        <translation>未知的 --format“%1”</translation>
    </message>
    <message>
        <source>expected exactly one EXPERIMENT file (see --help)</source>
        <translation>需要恰好一个 EXPERIMENT 文件（见 --help）</translation>
    </message>
    <message>
        <source>Check an experiment file and show its variants</source>
        <translation>检查实验文件并显示其变体</translation>
    </message>
    <message>
        <source>Usage: servescope-cli &lt;command&gt; [options]</source>
        <translation>用法：servescope-cli &lt;命令&gt; [选项]</translation>
    </message>
    <message>
        <source>Design, run and compare benchmark experiments against OpenAI-compatible LLM endpoints.</source>
        <translation>针对 OpenAI 兼容的 LLM 端点设计、运行和比较基准实验。</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Global options:
  -h, --help     Show this help (or `servescope-cli &lt;command&gt; --help`)
  -v, --version  Show the version

Exit codes: 0 success, 1 gate failed / endpoint unusable / no successful request,
2 bad input or usage, 130 interrupted.</source>
        <translation>全局选项：
  -h, --help     显示本帮助（或 `servescope-cli &lt;命令&gt; --help`）
  -v, --version  显示版本

退出码：0 成功，1 闸门未通过 / 端点不可用 / 没有成功的请求，
2 输入或用法错误，130 被中断。</translation>
    </message>
    <message>
        <source>servescope-cli: unknown command &apos;%1&apos;</source>
        <translation>servescope-cli：未知命令“%1”</translation>
    </message>
    <message>
        <source>Concurrent sequences in the batch (default 256).</source>
        <translation>批中的并发序列数（默认 256）。</translation>
    </message>
    <message>
        <source>Token budget per step, decode and chunked prefill (default 8192).</source>
        <translation>每步的 token 预算，含解码和分块预填充（默认 8192）。</translation>
    </message>
    <message>
        <source>Prompt + output limit (preset default).</source>
        <translation>提示 + 输出的长度上限（默认取预设值）。</translation>
    </message>
    <message>
        <source>KV block (page) size in tokens (default 16).</source>
        <translation>KV 块（页）大小，单位 token（默认 16）。</translation>
    </message>
    <message>
        <source>Share of the GPU&apos;s memory for weights and KV cache; sets the KV cache size (default 0.9).</source>
        <translation>GPU 显存中分给权重和 KV 缓存的比例；决定 KV 缓存大小（默认 0.9）。</translation>
    </message>
    <message>
        <source>New requests&apos; prompt tokens per step (sglang flavour; default 16384).</source>
        <translation>每步新请求的提示 token 数（sglang 风格；默认 16384）。</translation>
    </message>
    <message>
        <source>Which server to pose as: vllm (default) or sglang (its flag and metric names, /get_server_info, /flush_cache, its log lines).</source>
        <translation>模拟哪种服务器：vllm（默认）或 sglang（采用其参数名和指标名、/get_server_info、/flush_cache 及其日志行）。</translation>
    </message>
    <message>
        <source>sglang flavour: %1</source>
        <translation>sglang 风格：%1</translation>
    </message>
    <message>
        <source>Block-hash prefix cache (vllm).</source>
        <translation>基于块哈希的前缀缓存（vllm）。</translation>
    </message>
    <message>
        <source>sglang flavour: no prefix cache (on by default, as SGLang&apos;s radix cache).</source>
        <translation>sglang 风格：不用前缀缓存（默认开启，同 SGLang 的 radix cache）。</translation>
    </message>
    <message>
        <source>--flavor must be vllm or sglang, got &apos;%1&apos;</source>
        <translation>--flavor 必须是 vllm 或 sglang，得到的是“%1”</translation>
    </message>
    <message>
        <source>--%1 is %2&apos;s name; the %3 flavour takes --%4</source>
        <translation>--%1 是 %2 的参数名；%3 风格用 --%4</translation>
    </message>
    <message>
        <source>--%1 needs --flavor sglang</source>
        <translation>--%1 需要 --flavor sglang</translation>
    </message>
    <message>
        <source>--%1 needs a number from %2 to %3, got &apos;%4&apos;</source>
        <translation>--%1 需要 %2 到 %3 之间的数，得到的是“%4”</translation>
    </message>
    <message>
        <source>--enable-prefix-caching is vLLM&apos;s; the sglang flavour caches prefixes unless --disable-radix-cache</source>
        <translation>--enable-prefix-caching 是 vLLM 的参数；sglang 风格默认缓存前缀，除非给出 --disable-radix-cache</translation>
    </message>
    <message>
        <source>--disable-radix-cache needs --flavor sglang</source>
        <translation>--disable-radix-cache 需要 --flavor sglang</translation>
    </message>
    <message>
        <source>--%1 %2 leaves no memory for the KV cache beside the weights</source>
        <translation>--%1 %2 在权重之外没有给 KV 缓存留下显存</translation>
    </message>
    <message>
        <source>Team database: postgresql://USER@HOST:PORT/DBNAME[?sslmode=MODE&amp;sslrootcert=FILE] (never with a password)</source>
        <translation>团队数据库：postgresql://USER@HOST:PORT/DBNAME[?sslmode=MODE&amp;sslrootcert=FILE]（不得包含密码）</translation>
    </message>
    <message>
        <source>Environment variable holding the database password</source>
        <translation>存放数据库密码的环境变量</translation>
    </message>
    <message>
        <source>Where the database password is: env:VAR or keychain:ID (OS keychain, service ServeScope)</source>
        <translation>数据库密码所在位置：env:VAR 或 keychain:ID（系统钥匙串，服务名 ServeScope）</translation>
    </message>
    <message>
        <source>--db URL is required</source>
        <translation>必须给出 --db URL</translation>
    </message>
    <message>
        <source>give either --db-password-env or --db-password, not both</source>
        <translation>--db-password-env 和 --db-password 只能给出一个</translation>
    </message>
    <message>
        <source>--db-password must be env:VAR or keychain:ID (the reference, never the password)</source>
        <translation>--db-password 必须是 env:VAR 或 keychain:ID（只给引用，绝不给密码本身）</translation>
    </message>
    <message>
        <source>TCP port; 0 picks a free one (default 8000).</source>
        <translation>TCP 端口；0 表示自动选一个空闲端口（默认 8000）。</translation>
    </message>
    <message>
        <source>Seed of every random draw (default 0).</source>
        <translation>所有随机抽样的种子（默认 0）。</translation>
    </message>
    <message>
        <source>KV cache size in tokens (preset default).</source>
        <translation>KV 缓存大小，单位 token（默认取预设值）。</translation>
    </message>
    <message>
        <source>Bytes of weights read per step.</source>
        <translation>每步读取的权重字节数。</translation>
    </message>
    <message>
        <source>KV bytes per token of context.</source>
        <translation>每个上下文 token 的 KV 字节数。</translation>
    </message>
    <message>
        <source>Effective memory bandwidth, bytes/s.</source>
        <translation>有效显存带宽，字节/秒。</translation>
    </message>
    <message>
        <source>Effective FLOP/s.</source>
        <translation>有效 FLOP/s。</translation>
    </message>
    <message>
        <source>Parameters active per token.</source>
        <translation>每个 token 激活的参数量。</translation>
    </message>
    <message>
        <source>Fixed cost of every step, ms.</source>
        <translation>每步的固定开销，毫秒。</translation>
    </message>
    <message>
        <source>Tokens per SSE event (default 1).</source>
        <translation>每个 SSE 事件的 token 数（默认 1）。</translation>
    </message>
    <message>
        <source>Content events of exactly N characters, splitting words (0 = off).</source>
        <translation>每个内容事件恰好 N 个字符，可切断单词（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Start every stream with one content event (one line) of N bytes.</source>
        <translation>每个流以一个 N 字节的内容事件（单行）开头。</translation>
    </message>
    <message>
        <source>Also serve a DCGM-exporter-style /metrics on this port (0 picks one).</source>
        <translation>同时在此端口提供 DCGM exporter 风格的 /metrics（0 表示自动选择）。</translation>
    </message>
    <message>
        <source>Wait this long before listening, as a server loading its weights (wall clock).</source>
        <translation>开始监听前先等待这么久，如同正在加载权重的服务器（墙钟时间）。</translation>
    </message>
    <message>
        <source>Hold every stream&apos;s first token event this long (wall clock).</source>
        <translation>每个流的第一个 token 事件推迟这么久（墙钟时间）。</translation>
    </message>
    <message>
        <source>Mean output length without ignore_eos (default 256).</source>
        <translation>不设 ignore_eos 时的平均输出长度（默认 256）。</translation>
    </message>
    <message>
        <source>Run the model this many times faster than real time (default 1).</source>
        <translation>让模型以实时的这么多倍速度运行（默认 1）。</translation>
    </message>
    <message>
        <source>Idle keep-alive timeout, seconds (default 5).</source>
        <translation>keep-alive 空闲超时，秒（默认 5）。</translation>
    </message>
    <message>
        <source>Largest request body (default 16 MiB); larger gets 413.</source>
        <translation>请求体上限（默认 16 MiB）；超过则返回 413。</translation>
    </message>
    <message>
        <source>Share of requests answered 500.</source>
        <translation>返回 500 的请求比例。</translation>
    </message>
    <message>
        <source>Answer 429 (Retry-After: 1) when this many requests already wait.</source>
        <translation>已有这么多请求在等待时返回 429（Retry-After: 1）。</translation>
    </message>
    <message>
        <source>Share of streams cut mid-way.</source>
        <translation>中途被切断的流的比例。</translation>
    </message>
    <message>
        <source>Share of streams with one truncated JSON event.</source>
        <translation>含一个截断 JSON 事件的流的比例。</translation>
    </message>
    <message>
        <source>Pause a stream this long (wall clock) once, at a seeded token.</source>
        <translation>在一个预设的 token 处让流暂停一次，持续这么久（墙钟时间）。</translation>
    </message>
    <message>
        <source>Share of streams that stall when --stall-ms is set (default 1).</source>
        <translation>设置 --stall-ms 时发生停顿的流的比例（默认 1）。</translation>
    </message>
    <message>
        <source>1 measured request failed:</source>
        <translation>1 个测量请求失败：</translation>
    </message>
    <message>
        <source>%1 measured requests failed:</source>
        <translation>%1 个测量请求失败：</translation>
    </message>
    <message>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <source>preparing prompts</source>
        <translation>准备 prompt</translation>
    </message>
    <message>
        <source>saving</source>
        <translation>保存中</translation>
    </message>
    <message>
        <source>starting server</source>
        <translation>启动服务器</translation>
    </message>
    <message>
        <source>waiting for start-at</source>
        <translation>等待 start-at 时刻</translation>
    </message>
    <message>
        <source>warmup</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>%1% %2 [%3/%4] %5 r%6/%7 %8 | in-flight %9 ok %10 fail %11 | %12 tok/s ttft p50 %13 ms | ETA %14</source>
        <translation>%1% %2 [%3/%4] %5 r%6/%7 %8 | 在途 %9 成功 %10 失败 %11 | %12 token/s TTFT p50 %13 ms | 预计剩余 %14</translation>
    </message>
    <message>
        <source>Also probe /tokenize, /metrics, ignore_eos and whether the stream arrives buffered</source>
        <translation>同时探测 /tokenize、/metrics、ignore_eos，以及流是否被缓冲</translation>
    </message>
    <message>
        <source>Start every chat answer with N reasoning tokens (of its output), as a thinking model (default 0).</source>
        <translation>每个 chat 回答以 N 个推理 token 开头（计入其输出），模拟思考模型（默认 0）。</translation>
    </message>
    <message>
        <source>--reasoning-tokens and --chunk-chars cannot be combined</source>
        <translation>--reasoning-tokens 与 --chunk-chars 不能同时使用</translation>
    </message>
    <message>
        <source>Request path; it names the API (default: the --api&apos;s usual path, /v1/chat/completions)</source>
        <translation>请求路径，其结尾决定 API（默认：--api 的常用路径，/v1/chat/completions）</translation>
    </message>
    <message>
        <source>API without --path: chat, completions, responses, messages or sglang-generate (default chat)</source>
        <translation>未给 --path 时的 API：chat、completions、responses、messages 或 sglang-generate（默认 chat）</translation>
    </message>
    <message>
        <source>--api takes chat, completions, responses, messages or sglang-generate</source>
        <translation>--api 只接受 chat、completions、responses、messages 或 sglang-generate</translation>
    </message>
    <message>
        <source>--path names another API than --api</source>
        <translation>--path 对应的 API 与 --api 不同</translation>
    </message>
    <message>
        <source>--only-api takes chat, completions, responses, messages or sglang-generate</source>
        <translation>--only-api 只接受 chat、completions、responses、messages 或 sglang-generate</translation>
    </message>
    <message>
        <source>Serve only this API&apos;s generation route, the others answer 404 (repeatable).</source>
        <translation>只提供此 API 的生成路由，其余返回 404（可重复）。</translation>
    </message>
    <message>
        <source>cannot store the key in the keychain (entry %1): %2</source>
        <translation>无法把密钥存入钥匙串（条目 %1）：%2</translation>
    </message>
    <message>
        <source>environment variable %1 is not set here: set it before a run</source>
        <translation>此处没有设置环境变量 %1：请在运行前设置</translation>
    </message>
    <message>
        <source>the key in the file (%1) is a placeholder, not a real key: nothing was stored in the keychain. Put the real key in the file and import it again, keep it in the keychain with the window&apos;s endpoint profile, or export it in an environment variable and name that variable as the endpoint&apos;s api_key_env.</source>
        <translation>文件中的密钥（%1）是占位符，不是真正的密钥：没有向钥匙串存入任何内容。请在文件中填入真正的密钥后重新导入，或在窗口的端点配置中把它保存到钥匙串，或把它导出为环境变量，并将该变量名设为端点的 api_key_env。</translation>
    </message>
    <message>
        <source>Reads the endpoint of a Claude Code settings.json, a Codex auth.json or config.toml, or a .env file
and prints it as the &quot;endpoint&quot; object of an experiment file. A key the file holds is stored in the
OS keychain (service ServeScope) and the endpoint names its entry; a key variable the file names becomes
api_key_env. The file is only read. Exit 0 when read, 1 when the keychain did not keep the key, 2 when
the file holds no endpoint.</source>
        <translation>读取 Claude Code 的 settings.json、Codex 的 auth.json 或 config.toml，或 .env 文件中的端点，
并把它打印为实验文件的 &quot;endpoint&quot; 对象。文件中的密钥存入系统钥匙串（服务 ServeScope），
端点引用其条目；文件指定的密钥变量成为 api_key_env。文件只会被读取。
读取成功时退出码为 0，钥匙串未保存密钥时为 1，文件中没有端点时为 2。</translation>
    </message>
    <message>
        <source>settings.json, settings.local.json, auth.json, config.toml or .env.</source>
        <translation>settings.json、settings.local.json、auth.json、config.toml 或 .env 文件。</translation>
    </message>
    <message>
        <source>Keychain entry for the key (default: import-claude-code, import-codex or import-dotenv).</source>
        <translation>保存密钥的钥匙串条目（默认：import-claude-code、import-codex 或 import-dotenv）。</translation>
    </message>
    <message>
        <source>Do not store the file&apos;s key; the endpoint names --keychain-entry only when it is given.</source>
        <translation>不保存文件中的密钥；只有给出 --keychain-entry 时端点才引用该条目。</translation>
    </message>
    <message>
        <source>expected one FILE (see --help)</source>
        <translation>需要恰好一个 FILE（见 --help）</translation>
    </message>
    <message>
        <source>--keychain-entry needs an entry id</source>
        <translation>--keychain-entry 需要一个条目 ID</translation>
    </message>
    <message>
        <source>the key in the file (%1) was not stored (--no-store-key)</source>
        <translation>文件中的密钥（%1）未保存（--no-store-key）</translation>
    </message>
    <message>
        <source>the key in the file (%1) is stored in the keychain as entry %2 (service %3)</source>
        <translation>文件中的密钥（%1）已存入钥匙串，条目为 %2（服务 %3）</translation>
    </message>
    <message>
        <source>Read an endpoint from a Claude Code, Codex or .env file</source>
        <translation>从 Claude Code、Codex 或 .env 文件读取端点</translation>
    </message>
    <message>
        <source>Latency chart of ttft|ttfo|tpot|atpot|itl|e2el (default: throughput)</source>
        <translation>ttft|ttfo|tpot|atpot|itl|e2el 的延迟图（默认：吞吐量）</translation>
    </message>
    <message>
        <source>--metric must be ttft, ttfo, tpot, atpot, itl or e2el, not &apos;%1&apos;</source>
        <translation>--metric 必须是 ttft、ttfo、tpot、atpot、itl 或 e2el，而不是“%1”</translation>
    </message>
    <message>
        <source>Imports vLLM result files (--save-result, --append-result; every released key set) and SGLang&apos;s
bench_serving JSON lines into a project, and the result files of AIPerf, GuideLLM, genai-bench,
inference-perf, llmperf and llm-d Benchmark Reports (each figure under the vLLM definition it
equals; docs/import.md). Lines of a file that differ only in rate or concurrency become the
points of one run. Prints one line per run created: id, name, source (tab-separated).
--verify recomputes each statistic from the file&apos;s per-request arrays and prints one line per key.
Exit 0; 1 when --verify found a mismatch with no known reason; 2 when a file or line was malformed
(the other files and lines are still imported) or on a usage error.</source>
        <translation>把 vLLM 结果文件（--save-result、--append-result；所有已发布的键集）和 SGLang 的
bench_serving JSON 行导入项目，也导入 AIPerf、GuideLLM、genai-bench、inference-perf、
llmperf 的结果文件和 llm-d Benchmark Report（每个数值存到与其定义相同的 vLLM 指标下；
见 docs/import.md）。仅速率或并发不同的各行成为同一运行的负载点。
每创建一个运行输出一行：ID、名称、来源（制表符分隔）。
--verify 根据文件中的逐请求数组重新计算每个统计量，每个键输出一行。
退出码 0；--verify 发现无已知原因的不一致时为 1；文件或行格式错误时为 2
（其余文件和行仍会导入），用法错误时也为 2。</translation>
    </message>
    <message>
        <source>Import vLLM, SGLang or other benchmark tools&apos; result files into a project</source>
        <translation>把 vLLM、SGLang 或其他基准测试工具的结果文件导入项目</translation>
    </message>
    <message>
        <source>Exports a chart (PNG, SVG, PDF), the per-point CSV (summary.csv columns) or a self-contained report (HTML or PDF) of a stored run, optionally compared with a second run; or the run as SGLang&apos;s JSON lines or llm-d Benchmark Reports.</source>
        <translation>导出已存储运行的图表（PNG、SVG、PDF）、每个负载点的 CSV（summary.csv 的列）或独立报告（HTML 或 PDF），可与第二个运行对比；或将该运行导出为 SGLang 的 JSON 行或 llm-d Benchmark Report。</translation>
    </message>
    <message>
        <source>Write llm-d Benchmark Reports v0.2 (.yaml or .json), one per variant, point and repeat: FILE when the run has one, else FILE-&lt;variant&gt;-&lt;point&gt;[-r&lt;repeat&gt;]</source>
        <translation>写出 llm-d Benchmark Report v0.2（.yaml 或 .json），每个变体、负载点和重复各一份：运行只有一份时为 FILE，否则为 FILE-&lt;variant&gt;-&lt;point&gt;[-r&lt;repeat&gt;]</translation>
    </message>
    <message>
        <source>give exactly one of --chart FILE, --csv FILE, --report FILE, --sglang-jsonl FILE, --benchmark-report FILE</source>
        <translation>请恰好给出 --chart FILE、--csv FILE、--report FILE、--sglang-jsonl FILE、--benchmark-report FILE 中的一个</translation>
    </message>
    <message>
        <source>--vs does not apply to --sglang-jsonl or --benchmark-report</source>
        <translation>--vs 不适用于 --sglang-jsonl 或 --benchmark-report</translation>
    </message>
    <message>
        <source>--benchmark-report file must end in .yaml, .yml or .json</source>
        <translation>--benchmark-report 的文件名必须以 .yaml、.yml 或 .json 结尾</translation>
    </message>
    <message>
        <source>Result files (.json, .jsonl, .yaml), or folders of Benchmark Reports.</source>
        <translation>结果文件（.json、.jsonl、.yaml），或存放 Benchmark Report 的文件夹。</translation>
    </message>
    <message>
        <source>--fail-if %1: the baseline (%2) and the candidate (%3) define it differently (%4), so it cannot gate</source>
        <translation>--fail-if %1：基线（%2）与候选（%3）对该指标的定义不同（%4），因此不能用于门禁</translation>
    </message>
    <message>
        <source>Chart kind: load (default), tradeoff (latency vs throughput), per-gpu (output tok/s per GPU vs per user, with the Pareto frontier)</source>
        <translation>图表类型：load（默认）、tradeoff（延迟与吞吐量）、per-gpu（每 GPU 输出 token/秒与每用户速度，含帕累托前沿）</translation>
    </message>
    <message>
        <source>With --kind per-gpu: mark and state each curve&apos;s tok/s per GPU at this many output tok/s per user</source>
        <translation>配合 --kind per-gpu：标出并给出每条曲线在该每用户输出 token/秒处的每 GPU token/秒</translation>
    </message>
    <message>
        <source>--kind must be load, tradeoff or per-gpu</source>
        <translation>--kind 必须是 load、tradeoff 或 per-gpu</translation>
    </message>
    <message>
        <source>--metric does not apply to --kind per-gpu</source>
        <translation>--metric 不适用于 --kind per-gpu</translation>
    </message>
    <message>
        <source>--target-interactivity applies to --kind per-gpu only</source>
        <translation>--target-interactivity 仅适用于 --kind per-gpu</translation>
    </message>
    <message>
        <source>--target-interactivity must be a positive number of tokens/s</source>
        <translation>--target-interactivity 必须是正的 token/秒 数值</translation>
    </message>
    <message>
        <source>%1: no variant&apos;s capacity was searched on both sides (load.mode capacity)</source>
        <translation>%1：没有任何变体在两侧都做过容量搜索（load.mode capacity）</translation>
    </message>
    <message>
        <source>capacity searches: %1 levels of the baseline and %2 of the candidate were measured by one side only and are left out</source>
        <translation>容量搜索：基线的 %1 个级别和候选的 %2 个级别只有一侧测量过，已略去</translation>
    </message>
    <message>
        <source>Compare each point, once its repeats are done, with the same point of this stored run of the project (a &quot;vs:&quot; line on stderr: better, worse, mixed, noise or missing)</source>
        <translation>每个负载点的重复全部完成后，与项目中该已保存运行的同一负载点对比（stderr 上一行“vs:”：better、worse、mixed、noise 或 missing）</translation>
    </message>
    <message>
        <source>Capacity search: take the levels this stored run of the project measured (same variant, lengths and definitions) as known, judged by this experiment&apos;s SLOs</source>
        <translation>容量搜索：把项目中该已保存运行测过的级别（相同变体、长度和定义）当作已知，按本实验的 SLO 重新判定</translation>
    </message>
    <message>
        <source>%1: no variant has a server.gpu_hour_price on both sides</source>
        <translation>%1：没有任何变体在两侧都设置了 server.gpu_hour_price</translation>
    </message>
    <message>
        <source>Report usage that contradicts the stream: zero (0 prompt and output tokens) or tenth (a tenth of the output tokens).</source>
        <translation>报告与流相矛盾的 usage：zero（提示和输出均为 0 个 token）或 tenth（输出 token 的十分之一）。</translation>
    </message>
    <message>
        <source>--wrong-usage takes zero or tenth</source>
        <translation>--wrong-usage 只接受 zero 或 tenth</translation>
    </message>
</context>
<context>
    <name>ServeScope::Command</name>
    <message>
        <source>needs one number</source>
        <translation>需要一个数字</translation>
    </message>
    <message>
        <source>needs a whole number</source>
        <translation>需要一个整数</translation>
    </message>
    <message>
        <source>a backend ServeScope does not speak; the endpoint path is kept</source>
        <translation>ServeScope 不支持的后端；保留端点路径</translation>
    </message>
    <message>
        <source>must be numbers separated by commas</source>
        <translation>必须是以逗号分隔的数字</translation>
    </message>
    <message>
        <source>entries must look like ttft:500, tpot:50 or e2el:2000</source>
        <translation>各项须形如 ttft:500、tpot:50 或 e2el:2000</translation>
    </message>
    <message>
        <source>no release of %1 has this flag; read as --random-%2</source>
        <translation>%1 的任何版本都没有此参数；按 --random-%2 读取</translation>
    </message>
    <message>
        <source>ServeScope shuffles a dataset file with --seed; the file&apos;s order is not kept</source>
        <translation>ServeScope 会按 --seed 打乱数据集文件；不保留文件中的顺序</translation>
    </message>
    <message>
        <source>line %1: --random-range-ratio: SGLang&apos;s [L x %2, L] read as a spread of %3 around %4 input and %5 output tokens</source>
        <translation>第 %1 行：--random-range-ratio：SGLang 的 [L x %2, L] 按以 %4 个输入 token、%5 个输出 token 为中心、幅度 %3 的分布读取</translation>
    </message>
    <message>
        <source>the key itself is never kept</source>
        <translation>密钥本身从不保存</translation>
    </message>
    <message>
        <source>ignored: ServeScope keeps its own results (run --out-dir)</source>
        <translation>已忽略：ServeScope 自行保存结果（run --out-dir）</translation>
    </message>
    <message>
        <source>unknown flag; ignored</source>
        <translation>未知参数；已忽略</translation>
    </message>
    <message>
        <source>line %1: benchmark_serving.py defaults to the sharegpt dataset; the lengths given mean the random dataset</source>
        <translation>第 %1 行：benchmark_serving.py 默认使用 sharegpt 数据集；给出的长度表示使用 random 数据集</translation>
    </message>
    <message>
        <source>the key is not kept; name it with api_key_env</source>
        <translation>不保存密钥；请用 api_key_env 指定其环境变量</translation>
    </message>
    <message>
        <source>left out of the launch argv; the key&apos;s variable is kept as endpoint.api_key_env</source>
        <translation>已从启动 argv 中移除；密钥所在的变量保存为 endpoint.api_key_env</translation>
    </message>
    <message>
        <source>line %1: --%2: %3</source>
        <translation>第 %1 行：--%2：%3</translation>
    </message>
    <message>
        <source>line %1: a second server command; import one at a time</source>
        <translation>第 %1 行：出现第二条服务器命令；请一次导入一条</translation>
    </message>
    <message>
        <source>line %1: a second benchmark command; import one at a time</source>
        <translation>第 %1 行：出现第二条压测命令；请一次导入一条</translation>
    </message>
    <message>
        <source>line %1: not a server or benchmark command; ignored</source>
        <translation>第 %1 行：不是服务器或压测命令；已忽略</translation>
    </message>
    <message>
        <source>no vllm serve, sglang.launch_server, vllm bench serve, benchmark_serving.py or sglang.bench_serving command found</source>
        <translation>未找到 vllm serve、sglang.launch_server、vllm bench serve、benchmark_serving.py 或 sglang.bench_serving 命令</translation>
    </message>
</context>
<context>
    <name>ServeScope::CommandDialog</name>
    <message>
        <source>Paste command line</source>
        <translation>粘贴命令行</translation>
    </message>
    <message>
        <source>vllm serve …, python -m sglang.launch_server …, vllm bench serve …, python -m sglang.bench_serving …, or a list of SGLang flags</source>
        <translation>vllm serve …、python -m sglang.launch_server …、vllm bench serve …、python -m sglang.bench_serving …，或一组 SGLang 参数</translation>
    </message>
    <message>
        <source>Apply to the experiment</source>
        <translation>应用到实验</translation>
    </message>
    <message>
        <source>A server command sets the server (a list of flags: one variant per flag); a benchmark command sets the endpoint, dataset, load and metrics. A key in the text is never kept, only its variable&apos;s name.</source>
        <translation>服务器命令设置服务器（一组参数：每个参数一个变体）；基准测试命令设置端点、数据集、负载和指标。文本中的密钥从不保存，只保留其变量名。</translation>
    </message>
    <message>
        <source>pasted command</source>
        <translation>粘贴的命令</translation>
    </message>
    <message numerus="yes">
        <source>Server: %1 with %n argument(s)</source>
        <translation>
            <numerusform>服务器：%1，%n 个参数</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Variants: %n, one per flag</source>
        <translation>
            <numerusform>变体：%n 个，每个参数一个</numerusform>
        </translation>
    </message>
    <message>
        <source>Benchmark: %1, dataset %2, %3 prompts of %4 → %5 tokens</source>
        <translation>基准测试：%1，数据集 %2，%3 个提示，%4 → %5 个 token</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
</context>
<context>
    <name>ServeScope::Compare</name>
    <message>
        <source>%1: no manifest.json (not a results folder of `run --out-dir`)</source>
        <translation>%1：没有 manifest.json（不是 `run --out-dir` 生成的结果目录）</translation>
    </message>
    <message>
        <source>%1/manifest.json: the experiment does not read: %2</source>
        <translation>%1/manifest.json：其中的实验无法读取：%2</translation>
    </message>
    <message>
        <source>%1: no result files (&lt;variant&gt;/&lt;point&gt;-r&lt;k&gt;.json)</source>
        <translation>%1：没有结果文件（&lt;variant&gt;/&lt;point&gt;-r&lt;k&gt;.json）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a results folder; a stored run needs --project</source>
        <translation>“%1”不是结果目录；要读取已保存的运行，需要指定 --project</translation>
    </message>
    <message>
        <source>%1: %2 vs A: %3</source>
        <translation>%1：%2 对比 A：%3</translation>
    </message>
    <message>
        <source>B: %1 vs A: %2</source>
        <translation>B：%1 对比 A：%2</translation>
    </message>
</context>
<context>
    <name>ServeScope::Dataset</name>
    <message>
        <source>the sonnet file does not exist here; the built-in copy of vLLM&apos;s benchmarks/sonnet.txt is used</source>
        <translation>此处不存在 sonnet 文件；改用内置的 vLLM benchmarks/sonnet.txt 副本</translation>
    </message>
    <message>
        <source>cannot read the sonnet file: %1</source>
        <translation>无法读取 sonnet 文件：%1</translation>
    </message>
    <message>
        <source>the sonnet file has no lines</source>
        <translation>sonnet 文件没有任何行</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>line %1: must be a JSON object</source>
        <translation>第 %1 行：必须是 JSON 对象</translation>
    </message>
    <message>
        <source>line %1: needs a non-empty string &quot;prompt&quot;</source>
        <translation>第 %1 行：需要非空字符串 &quot;prompt&quot;</translation>
    </message>
    <message>
        <source>line %1: %2 must be a whole number of tokens from 1</source>
        <translation>第 %1 行：%2 必须是不小于 1 的整数 token 数</translation>
    </message>
    <message>
        <source>cannot read the custom dataset: %1</source>
        <translation>无法读取自定义数据集：%1</translation>
    </message>
    <message>
        <source>the custom dataset is larger than %1 bytes</source>
        <translation>自定义数据集超过 %1 字节</translation>
    </message>
    <message>
        <source>the custom dataset has no prompts</source>
        <translation>自定义数据集中没有 prompt</translation>
    </message>
    <message>
        <source>is not a dataset ServeScope can build</source>
        <translation>不是 ServeScope 能构建的数据集</translation>
    </message>
    <message>
        <source>the file must be a JSON list of conversations</source>
        <translation>文件必须是由对话组成的 JSON 列表</translation>
    </message>
    <message>
        <source>an entry ending after byte %1 is larger than %2 bytes</source>
        <translation>在第 %1 字节之后结束的一项超过 %2 字节</translation>
    </message>
    <message>
        <source>the file ends inside the list (truncated?)</source>
        <translation>文件在列表中途结束（是否被截断？）</translation>
    </message>
    <message>
        <source>cannot read the sharegpt file: %1</source>
        <translation>无法读取 sharegpt 文件：%1</translation>
    </message>
    <message>
        <source>the sharegpt file has no conversation with two turns</source>
        <translation>sharegpt 文件中没有包含两轮的对话</translation>
    </message>
    <message>
        <source>dataset %1: %2</source>
        <translation>数据集 %1：%2</translation>
    </message>
    <message>
        <source>sharegpt: none of %1 conversations passes vLLM&apos;s length filter (prompt 4 to 1024 tokens, output at least 4, both at most 2048)</source>
        <translation>sharegpt：%1 条对话都没有通过 vLLM 的长度过滤（提示 4 到 1024 个 token，输出至少 4 个，两者都不超过 2048）</translation>
    </message>
    <message>
        <source>sonnet: input_len %1 must be greater than the instruction&apos;s %2 tokens</source>
        <translation>sonnet：input_len %1 必须大于指令本身的 %2 个 token</translation>
    </message>
    <message>
        <source>sonnet: prefix_len %1 is longer than input_len %2</source>
        <translation>sonnet：prefix_len %1 大于 input_len %2</translation>
    </message>
    <message>
        <source>sonnet: %1 of %2 prompts stayed longer than input_len %3 after %4 draws</source>
        <translation>sonnet：抽取 %4 次后，%2 个提示中仍有 %1 个长于 input_len %3</translation>
    </message>
    <message>
        <source>%1 of the trace&apos;s requests have no prompt or no output tokens and are left out</source>
        <translation>追踪中有 %1 个请求没有提示或输出词元，已略去</translation>
    </message>
    <message>
        <source>num_prompts %1 is more than the trace&apos;s %2 requests</source>
        <translation>num_prompts %1 多于追踪的 %2 个请求</translation>
    </message>
    <message>
        <source>line %1: the timestamp is negative or out of range</source>
        <translation>第 %1 行：时间戳为负或超出范围</translation>
    </message>
    <message>
        <source>line %1: a length is not a whole number of tokens at least 0</source>
        <translation>第 %1 行：长度不是不小于 0 的整数词元数</translation>
    </message>
    <message>
        <source>line %1: a length of %2 tokens is beyond the 10000000 ServeScope sends</source>
        <translation>第 %1 行：长度 %2 个词元超过 ServeScope 可发送的 10000000</translation>
    </message>
    <message>
        <source>line %1: the timestamp is earlier than line %2&apos;s; a trace must be in time order</source>
        <translation>第 %1 行：时间戳早于第 %2 行；追踪必须按时间排序</translation>
    </message>
    <message>
        <source>line %1: needs a number &quot;%2&quot;</source>
        <translation>第 %1 行：需要数字 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>line %1: &quot;hash_ids&quot; must be a list</source>
        <translation>第 %1 行：&quot;hash_ids&quot; 必须是列表</translation>
    </message>
    <message>
        <source>line %1: &quot;hash_ids&quot; must hold whole numbers at least 0</source>
        <translation>第 %1 行：&quot;hash_ids&quot; 必须由不小于 0 的整数组成</translation>
    </message>
    <message>
        <source>line %1: the header has no column &quot;%2&quot;</source>
        <translation>第 %1 行：表头没有 &quot;%2&quot; 列</translation>
    </message>
    <message>
        <source>line %1: has %2 columns; the header names %3</source>
        <translation>第 %1 行：有 %2 列；表头列出 %3 列</translation>
    </message>
    <message>
        <source>line %1: TIMESTAMP is not a date and time such as 2023-11-16 18:15:46.68</source>
        <translation>第 %1 行：TIMESTAMP 不是形如 2023-11-16 18:15:46.68 的日期时间</translation>
    </message>
    <message>
        <source>line %1: column %2 is not a number</source>
        <translation>第 %1 行：第 %2 列不是数字</translation>
    </message>
    <message>
        <source>cannot read the trace file: %1</source>
        <translation>无法读取追踪文件：%1</translation>
    </message>
    <message>
        <source>the trace format %1 is not one ServeScope reads (mooncake, azure, burstgpt)</source>
        <translation>ServeScope 不读取追踪格式 %1（可用 mooncake、azure、burstgpt）</translation>
    </message>
    <message>
        <source>line %1: is longer than 1 MiB</source>
        <translation>第 %1 行：超过 1 MiB</translation>
    </message>
    <message>
        <source>is not a trace ServeScope reads: Mooncake JSONL, or a CSV with the Azure trace&apos;s or BurstGPT&apos;s header</source>
        <translation>不是 ServeScope 可读取的追踪：应为 Mooncake JSONL，或带有 Azure 追踪或 BurstGPT 表头的 CSV</translation>
    </message>
    <message>
        <source>line %1: the trace has more than %2 requests; replay part of it with num_prompts</source>
        <translation>第 %1 行：追踪的请求多于 %2 个；请用 num_prompts 回放其中一部分</translation>
    </message>
    <message>
        <source>the trace has no request with prompt and output tokens</source>
        <translation>追踪中没有同时带提示和输出词元的请求</translation>
    </message>
    <message>
        <source>the trace has no requests</source>
        <translation>追踪中没有请求</translation>
    </message>
    <message>
        <source>no conversation of the sharegpt file has %1 user turns (dataset.turns)</source>
        <translation>sharegpt 文件中没有哪段对话包含 %1 轮用户消息（dataset.turns）</translation>
    </message>
</context>
<context>
    <name>ServeScope::Definitions</name>
    <message>
        <source>request sent → first streamed event with choices (a role-only delta counts; reasoning counts)</source>
        <translation>请求发出 → 第一个带 choices 的流式事件（仅含角色的 delta 也计入；推理计入）</translation>
    </message>
    <message>
        <source>request sent → first content or tool-call event (reasoning excluded)</source>
        <translation>请求发出 → 第一个内容或工具调用事件（不含推理）</translation>
    </message>
    <message>
        <source>(E2EL − TTFT) / (output tokens − 1) per request, each request once; tokens from the server&apos;s usage</source>
        <translation>每个请求的 (E2EL − TTFT) / (输出 token 数 − 1)，每个请求计一次；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>every gap between token events, all requests&apos; gaps pooled</source>
        <translation>token 事件之间的每个间隔，所有请求的间隔合并统计</translation>
    </message>
    <message>
        <source>request sent → last token event (usage chunk and [DONE] excluded)</source>
        <translation>请求发出 → 最后一个 token 事件（不含 usage 块和 [DONE]）</translation>
    </message>
    <message>
        <source>output tokens / duration; tokens from the server&apos;s usage</source>
        <translation>输出 token 数 / 时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>input and output tokens / duration; tokens from the server&apos;s usage</source>
        <translation>输入与输出 token 数 / 时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>request sent → first event with text (content, reasoning or tool call)</source>
        <translation>请求发出 → 第一个带文本的事件（内容、推理或工具调用）</translation>
    </message>
    <message>
        <source>(E2EL − TTFT) / (output tokens − 1) per request; output tokens as requested (max_tokens)</source>
        <translation>每个请求的 (E2EL − TTFT) / (输出 token 数 − 1)；输出 token 数按请求值（max_tokens）计</translation>
    </message>
    <message>
        <source>every gap between events with text, all requests&apos; gaps pooled</source>
        <translation>带文本事件之间的每个间隔，所有请求的间隔合并统计</translation>
    </message>
    <message>
        <source>request sent → last line received ([DONE] included)</source>
        <translation>请求发出 → 收到最后一行（含 [DONE]）</translation>
    </message>
    <message>
        <source>output tokens / duration; output tokens as requested</source>
        <translation>输出 token 数 / 时长；输出 token 数按请求值计</translation>
    </message>
    <message>
        <source>input and output tokens / duration; input as the dataset&apos;s target, output as requested</source>
        <translation>输入与输出 token 数 / 时长；输入按数据集目标长度，输出按请求值计</translation>
    </message>
    <message>
        <source>request sent → first response with content (reasoning counts)</source>
        <translation>请求发出 → 第一个带内容的响应（推理计入）</translation>
    </message>
    <message>
        <source>request sent → first non-reasoning token</source>
        <translation>请求发出 → 第一个非推理 token</translation>
    </message>
    <message>
        <source>(request latency − TTFT) / (output tokens − 1) per request; tokens counted by the client&apos;s tokenizer</source>
        <translation>每个请求的 (请求延迟 − TTFT) / (输出 token 数 − 1)；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>every gap between response chunks (inter_chunk_latency), pooled</source>
        <translation>响应块之间的每个间隔（inter_chunk_latency），合并统计</translation>
    </message>
    <message>
        <source>request sent → last response received</source>
        <translation>请求发出 → 收到最后一个响应</translation>
    </message>
    <message>
        <source>output tokens / benchmark duration; tokens counted by the client&apos;s tokenizer</source>
        <translation>输出 token 数 / 压测时长；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>input and output tokens / benchmark duration; tokens counted by the client&apos;s tokenizer</source>
        <translation>输入与输出 token 数 / 压测时长；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>request sent → first token iteration (reasoning counts)</source>
        <translation>请求发出 → 第一个 token 迭代（推理计入）</translation>
    </message>
    <message>
        <source>request sent → first non-reasoning token (GuideLLM 0.8 and later)</source>
        <translation>请求发出 → 第一个非推理 token（GuideLLM 0.8 及以后）</translation>
    </message>
    <message>
        <source>(last token − first token) / (output tokens − 1) per request, the distribution weighted by output tokens</source>
        <translation>每个请求的 (最后一个 token − 第一个 token) / (输出 token 数 − 1)，分布按输出 token 数加权</translation>
    </message>
    <message>
        <source>request sent → request end</source>
        <translation>请求发出 → 请求结束</translation>
    </message>
    <message>
        <source>output tokens / benchmark duration; tokens from the server&apos;s usage</source>
        <translation>输出 token 数 / 压测时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>input and output tokens / benchmark duration; tokens from the server&apos;s usage</source>
        <translation>输入与输出 token 数 / 压测时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>request sent → first chunk with text (reasoning counts)</source>
        <translation>请求发出 → 第一个带文本的块（推理计入）</translation>
    </message>
    <message>
        <source>(E2E latency − TTFT) / (output tokens − 1) per request; tokens from the server&apos;s usage</source>
        <translation>每个请求的 (端到端延迟 − TTFT) / (输出 token 数 − 1)；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>request sent → last chunk received</source>
        <translation>请求发出 → 收到最后一个块</translation>
    </message>
    <message>
        <source>output tokens / run duration; tokens from the server&apos;s usage</source>
        <translation>输出 token 数 / 运行时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>input and output tokens / run duration; tokens from the server&apos;s usage</source>
        <translation>输入与输出 token 数 / 运行时长；token 数取自服务器的 usage</translation>
    </message>
    <message>
        <source>request sent → first chunk received (older versions stamp the blank line between events)</source>
        <translation>请求发出 → 收到第一个块（旧版本会把事件之间的空行记为时间点）</translation>
    </message>
    <message>
        <source>(last token − first token) / (output tokens − 1) per request; tokens counted by the client&apos;s tokenizer</source>
        <translation>每个请求的 (最后一个 token − 第一个 token) / (输出 token 数 − 1)；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>request sent → response complete</source>
        <translation>请求发出 → 响应完成</translation>
    </message>
    <message>
        <source>output tokens per second; tokens counted by the client&apos;s tokenizer</source>
        <translation>每秒输出 token 数；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>input and output tokens per second; tokens counted by the client&apos;s tokenizer</source>
        <translation>每秒输入与输出 token 数；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>request sent → first chunk with non-empty content (reasoning ignored)</source>
        <translation>请求发出 → 第一个内容非空的块（忽略推理）</translation>
    </message>
    <message>
        <source>request sent → stream closed</source>
        <translation>请求发出 → 流关闭</translation>
    </message>
    <message>
        <source>output tokens / duration; tokens counted by a fixed llama tokenizer</source>
        <translation>输出 token 数 / 时长；token 数由固定的 llama 分词器统计</translation>
    </message>
    <message>
        <source>(E2EL − TTFT) / (output tokens − 1) per request, recomputed from llmperf&apos;s per-request records; tokens counted by a fixed llama tokenizer</source>
        <translation>每个请求的 (E2EL − TTFT) / (输出 token 数 − 1)，由 llmperf 的逐请求记录重新计算；token 数由固定的 llama 分词器统计</translation>
    </message>
    <message>
        <source>request sent → first response with content, recomputed from AIPerf&apos;s per-request records</source>
        <translation>请求发出 → 第一个带内容的响应，由 AIPerf 的逐请求记录重新计算</translation>
    </message>
    <message>
        <source>request sent → first non-reasoning token, recomputed from AIPerf&apos;s per-request records</source>
        <translation>请求发出 → 第一个非推理 token，由 AIPerf 的逐请求记录重新计算</translation>
    </message>
    <message>
        <source>(request latency − TTFT) / (output tokens − 1) per request, recomputed from AIPerf&apos;s per-request records; tokens counted by the client&apos;s tokenizer</source>
        <translation>每个请求的 (请求延迟 − TTFT) / (输出 token 数 − 1)，由 AIPerf 的逐请求记录重新计算；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>every gap between response chunks, pooled, recomputed from AIPerf&apos;s per-request records</source>
        <translation>响应块之间的每个间隔，合并统计，由 AIPerf 的逐请求记录重新计算</translation>
    </message>
    <message>
        <source>request sent → last response received, recomputed from AIPerf&apos;s per-request records</source>
        <translation>请求发出 → 收到最后一个响应，由 AIPerf 的逐请求记录重新计算</translation>
    </message>
    <message>
        <source>output tokens / the records&apos; span; tokens counted by the client&apos;s tokenizer</source>
        <translation>输出 token 数 / 记录覆盖的时长；token 数由客户端分词器统计</translation>
    </message>
    <message>
        <source>as the report&apos;s harness defines it</source>
        <translation>按报告所用压测工具的定义</translation>
    </message>
    <message>
        <source>the report&apos;s mean output token rate</source>
        <translation>报告中的平均输出 token 速率</translation>
    </message>
    <message>
        <source>completed requests / duration</source>
        <translation>完成的请求数 / 时长</translation>
    </message>
    <message>
        <source>completed / (completed + failed)</source>
        <translation>完成数 / (完成数 + 失败数)</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>TTFO</source>
        <translation>TTFO</translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>ITL</translation>
    </message>
    <message>
        <source>E2E latency</source>
        <translation>端到端延迟</translation>
    </message>
    <message>
        <source>Output throughput</source>
        <translation>输出吞吐量</translation>
    </message>
    <message>
        <source>Total token throughput</source>
        <translation>总 token 吞吐量</translation>
    </message>
    <message>
        <source>Request throughput</source>
        <translation>请求吞吐量</translation>
    </message>
    <message>
        <source>Success rate</source>
        <translation>成功率</translation>
    </message>
    <message>
        <source>not stored</source>
        <translation>未存储</translation>
    </message>
    <message>
        <source>comparable as published</source>
        <translation>按原样可比</translation>
    </message>
    <message>
        <source>comparable after recompute</source>
        <translation>重新计算后可比</translation>
    </message>
    <message>
        <source>not comparable</source>
        <translation>不可比</translation>
    </message>
</context>
<context>
    <name>ServeScope::DeltaTableModel</name>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>负载点</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Change (%)</source>
        <translation>变化（%）</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>95% intervals: A [%1, %2], B [%3, %4]</source>
        <translation>95% 置信区间：A [%1, %2]，B [%3, %4]</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
</context>
<context>
    <name>ServeScope::DesignPageController</name>
    <message>
        <source>Command copied to the clipboard</source>
        <translation>命令已复制到剪贴板</translation>
    </message>
    <message>
        <source>The local simulator describes itself in every run&apos;s client-host record.</source>
        <translation>本地模拟器会在每次运行的客户端主机记录中描述自身。</translation>
    </message>
    <message>
        <source>Capture environment from server</source>
        <translation>从服务器采集环境</translation>
    </message>
    <message>
        <source>The local simulator starts with the run: there is nothing to reach before.</source>
        <translation>本地模拟器随运行一起启动：运行之前没有可连接的服务器。</translation>
    </message>
</context>
<context>
    <name>ServeScope::EndpointFile</name>
    <message>
        <source>profile %1 has no [profiles.%1] table: the top-level settings are used</source>
        <translation>配置档 %1 没有 [profiles.%1] 表：使用顶层设置</translation>
    </message>
    <message>
        <source>%1 must be a table</source>
        <translation>%1 必须是表</translation>
    </message>
    <message>
        <source>model_provider is not set: the only provider, [model_providers.%1], is used (Codex itself would use its built-in OpenAI provider)</source>
        <translation>没有设置 model_provider：使用唯一的提供方 [model_providers.%1]（Codex 本身会使用其内置的 OpenAI 提供方）</translation>
    </message>
    <message>
        <source>model_provider is %1, but the file has no [model_providers.%1] table</source>
        <translation>model_provider 为 %1，但文件中没有 [model_providers.%1] 表</translation>
    </message>
    <message>
        <source>%1 must be chat or responses</source>
        <translation>%1 必须是 chat 或 responses</translation>
    </message>
    <message>
        <source>%1 is not set</source>
        <translation>没有设置 %1</translation>
    </message>
    <message>
        <source>%1 is not an environment variable name</source>
        <translation>%1 不是环境变量名</translation>
    </message>
    <message>
        <source>%1 is not imported: add what the provider needs to the endpoint by hand</source>
        <translation>%1 未导入：请手动把该提供方需要的内容加到端点上</translation>
    </message>
    <message>
        <source>Codex&apos;s built-in OpenAI provider: https://api.openai.com/v1, the Responses API, the key from environment variable OPENAI_API_KEY</source>
        <translation>Codex 内置的 OpenAI 提供方：https://api.openai.com/v1，Responses API，密钥取自环境变量 OPENAI_API_KEY</translation>
    </message>
    <message>
        <source>model not set in the file</source>
        <translation>文件中没有设置模型</translation>
    </message>
    <message>
        <source>the file holds a ChatGPT sign-in, not an API key: there is nothing to import</source>
        <translation>该文件保存的是 ChatGPT 登录信息，不是 API 密钥：没有可导入的内容</translation>
    </message>
    <message>
        <source>auth.json does not name the API: chat is assumed (Codex&apos;s config.toml names it with wire_api)</source>
        <translation>auth.json 没有指明 API：按 chat 处理（Codex 的 config.toml 用 wire_api 指明它）</translation>
    </message>
    <message>
        <source>no base_url: Codex&apos;s built-in OpenAI provider is used (https://api.openai.com/v1, the Responses API)</source>
        <translation>没有 base_url：使用 Codex 内置的 OpenAI 提供方（https://api.openai.com/v1，Responses API）</translation>
    </message>
    <message>
        <source>model not set in the file (Codex keeps it in config.toml)</source>
        <translation>文件中没有设置模型（Codex 把它保存在 config.toml 中）</translation>
    </message>
    <message>
        <source>%1 refers to variable %2, which the file does not set</source>
        <translation>%1 引用了变量 %2，但文件中没有设置它</translation>
    </message>
    <message>
        <source>%1 is also set in this file, but a run reads it from the environment, not from the file</source>
        <translation>此文件中也设置了 %1，但运行时从环境中读取它，而不是从文件中读取</translation>
    </message>
    <message>
        <source>model taken from %1</source>
        <translation>模型取自 %1</translation>
    </message>
    <message>
        <source>OPENAI_BASE_URL is not set: OpenAI&apos;s API, https://api.openai.com/v1, is used</source>
        <translation>没有设置 OPENAI_BASE_URL：使用 OpenAI 的 API https://api.openai.com/v1</translation>
    </message>
    <message>
        <source>ANTHROPIC_BASE_URL is not set: Claude Code&apos;s default, https://api.anthropic.com, is used</source>
        <translation>没有设置 ANTHROPIC_BASE_URL：使用 Claude Code 的默认地址 https://api.anthropic.com</translation>
    </message>
    <message>
        <source>the file sets none of OPENAI_BASE_URL, OPENAI_API_BASE, OPENAI_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN</source>
        <translation>文件中没有设置 OPENAI_BASE_URL、OPENAI_API_BASE、OPENAI_API_KEY、ANTHROPIC_BASE_URL、ANTHROPIC_API_KEY 或 ANTHROPIC_AUTH_TOKEN 中的任何一个</translation>
    </message>
    <message>
        <source>the file sets both OPENAI_* and ANTHROPIC_* variables: the ANTHROPIC_* ones are used</source>
        <translation>文件同时设置了 OPENAI_* 和 ANTHROPIC_* 变量：使用 ANTHROPIC_* 变量</translation>
    </message>
    <message>
        <source>the file sets both OPENAI_* and ANTHROPIC_* variables: the OPENAI_* ones are used</source>
        <translation>文件同时设置了 OPENAI_* 和 ANTHROPIC_* 变量：使用 OPENAI_* 变量</translation>
    </message>
    <message>
        <source>lines that are not NAME=value assignments were ignored: %1</source>
        <translation>已忽略不是 NAME=value 赋值的行：%1 行</translation>
    </message>
    <message>
        <source>%1 must be a string</source>
        <translation>%1 必须是字符串</translation>
    </message>
    <message>
        <source>%1 is not an http:// or https:// URL</source>
        <translation>%1 不是 http:// 或 https:// 地址</translation>
    </message>
    <message>
        <source>the URL in %1 holds a user name or password, which an endpoint&apos;s base URL must not</source>
        <translation>%1 中的地址含有用户名或密码，端点的基础 URL 不能含有它们</translation>
    </message>
    <message>
        <source>the URL in %1 has a query or fragment (?… or #…), which an endpoint&apos;s base URL cannot carry</source>
        <translation>%1 中的地址带有查询或片段（?… 或 #…），端点的基础 URL 不能带有它们</translation>
    </message>
    <message>
        <source>the URL in %1 does not end in /v1: requests go to it followed by %2, as the tool sends them</source>
        <translation>%1 中的地址不以 /v1 结尾：请求发往该地址加上 %2，与该工具的发送方式相同</translation>
    </message>
    <message>
        <source>the file holds no key</source>
        <translation>文件中没有密钥</translation>
    </message>
    <message>
        <source>the key is read from environment variable %1 when a run starts (%2 names it)</source>
        <translation>运行开始时从环境变量 %1 读取密钥（由 %2 指定）</translation>
    </message>
    <message>
        <source>the key in %1 is a placeholder from a setup guide, not a key</source>
        <translation>%1 中的密钥是配置教程留下的占位符，不是真正的密钥</translation>
    </message>
    <message>
        <source>the key comes from apiKeyHelper, a command ServeScope does not run: keep the key in the keychain or an environment variable</source>
        <translation>密钥来自 apiKeyHelper，这是 ServeScope 不会运行的命令：请把密钥保存在钥匙串或环境变量中</translation>
    </message>
    <message>
        <source>Claude Code sends ANTHROPIC_AUTH_TOKEN as Authorization: Bearer; ServeScope&apos;s messages requests send the key as x-api-key, which most gateways accept too</source>
        <translation>Claude Code 以 Authorization: Bearer 发送 ANTHROPIC_AUTH_TOKEN；ServeScope 的 messages 请求以 x-api-key 发送密钥，大多数网关也接受这种方式</translation>
    </message>
    <message>
        <source>model not set in the file: &quot;%1&quot; is one of Claude Code&apos;s aliases, not a model id</source>
        <translation>文件中没有设置模型：“%1”是 Claude Code 的别名，不是模型 ID</translation>
    </message>
    <message>
        <source>not a Claude Code settings.json, Codex auth.json/config.toml or .env file</source>
        <translation>不是 Claude Code 的 settings.json、Codex 的 auth.json/config.toml 或 .env 文件</translation>
    </message>
    <message>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>a Claude Code settings file whose env sets no ANTHROPIC_* variable: it names no endpoint</source>
        <translation>这个 Claude Code 设置文件的 env 中没有 ANTHROPIC_* 变量：其中没有端点</translation>
    </message>
    <message>
        <source>not valid TOML: %1</source>
        <translation>不是有效的 TOML：%1</translation>
    </message>
    <message>
        <source>the file is larger than %1 bytes</source>
        <translation>文件大于 %1 字节</translation>
    </message>
    <message>
        <source>the file is binary, not text</source>
        <translation>这是二进制文件，不是文本</translation>
    </message>
    <message>
        <source>line %1 is not UTF-8 text</source>
        <translation>第 %1 行不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
</context>
<context>
    <name>ServeScope::ExperimentEditor</name>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Server &amp;&amp; environment</source>
        <translation>服务器和环境</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Use profile</source>
        <translation>使用配置</translation>
    </message>
    <message>
        <source>Manage profiles…</source>
        <translation>管理配置…</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Endpoint of this experiment</source>
        <translation>本实验的端点</translation>
    </message>
    <message>
        <source>Experiment name</source>
        <translation>实验名称</translation>
    </message>
    <message>
        <source>Rename experiment</source>
        <translation>重命名实验</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Change base URL</source>
        <translation>修改基础 URL</translation>
    </message>
    <message>
        <source>http://host:8000, or sim: for the local simulator</source>
        <translation>http://host:8000，或用 sim: 表示本地模拟器</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Change path</source>
        <translation>修改路径</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Change model</source>
        <translation>修改模型</translation>
    </message>
    <message>
        <source>OpenAI (strict)</source>
        <translation>OpenAI（严格）</translation>
    </message>
    <message>
        <source>Dialect</source>
        <translation>接口风格</translation>
    </message>
    <message>
        <source>Change dialect</source>
        <translation>修改接口风格</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Change protocol</source>
        <translation>修改协议</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>Change proxy</source>
        <translation>修改代理</translation>
    </message>
    <message>
        <source>host:port (empty: none)</source>
        <translation>主机:端口（留空表示不使用）</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>API 密钥变量</translation>
    </message>
    <message>
        <source>Change API key variable</source>
        <translation>修改 API 密钥变量</translation>
    </message>
    <message>
        <source>name of an environment variable, e.g. OPENAI_API_KEY</source>
        <translation>环境变量名，例如 OPENAI_API_KEY</translation>
    </message>
    <message>
        <source>Keychain</source>
        <translation>密钥环</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>额外请求头</translation>
    </message>
    <message>
        <source>Edit extra headers</source>
        <translation>编辑额外请求头</translation>
    </message>
    <message>
        <source>Percentiles</source>
        <translation>百分位</translation>
    </message>
    <message>
        <source>Change percentiles</source>
        <translation>修改百分位</translation>
    </message>
    <message>
        <source>Goodput SLO: TTFT</source>
        <translation>有效吞吐 SLO：TTFT</translation>
    </message>
    <message>
        <source>Goodput SLO: TPOT</source>
        <translation>有效吞吐 SLO：TPOT</translation>
    </message>
    <message>
        <source>Goodput SLO: E2EL</source>
        <translation>有效吞吐 SLO：E2EL</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Change goodput SLO</source>
        <translation>修改有效吞吐 SLO</translation>
    </message>
    <message>
        <source>vLLM (vllm bench serve)</source>
        <translation>vLLM（vllm bench serve）</translation>
    </message>
    <message>
        <source>SGLang (bench_serving)</source>
        <translation>SGLang（bench_serving）</translation>
    </message>
    <message>
        <source>Definitions profile</source>
        <translation>指标定义</translation>
    </message>
    <message>
        <source>Change definitions profile</source>
        <translation>修改指标定义</translation>
    </message>
    <message>
        <source>Use endpoint profile &quot;%1&quot;</source>
        <translation>使用端点配置“%1”</translation>
    </message>
    <message>
        <source>no key in the keychain (use a profile to attach one)</source>
        <translation>密钥环中没有密钥（可通过配置关联一个）</translation>
    </message>
    <message>
        <source>key stored in the OS keychain as &quot;%1&quot;</source>
        <translation>密钥以“%1”保存在系统密钥环中</translation>
    </message>
    <message numerus="yes">
        <source>&lt;span style=&quot;color:#b00020&quot;&gt;%n problem(s) to fix before running&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;span style=&quot;color:#b00020&quot;&gt;运行前需修复 %n 个问题&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;span style=&quot;color:#8a5a00&quot;&gt;%n warning(s)&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;span style=&quot;color:#8a5a00&quot;&gt;%n 个警告&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>Ready to run</source>
        <translation>可以运行</translation>
    </message>
    <message numerus="yes">
        <source>about %1 for %n measured request(s)</source>
        <translation>
            <numerusform>约 %1，共 %n 个测量请求</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;span style=&quot;color:#8a5a00&quot;&gt;%n point(s) have fewer than 5 × concurrency prompts&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;span style=&quot;color:#8a5a00&quot;&gt;%n 个负载点的提示数少于 5 × 并发数&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>Change CA file</source>
        <translation>修改 CA 文件</translation>
    </message>
    <message>
        <source>https: PEM file of the certificate authorities to trust (empty: the system&apos;s)</source>
        <translation>https：要信任的证书颁发机构的 PEM 文件（留空：使用系统的）</translation>
    </message>
    <message>
        <source>Do not verify the server&apos;s certificate (said in every report)</source>
        <translation>不验证服务器证书（每份报告都会注明）</translation>
    </message>
    <message>
        <source>Toggle certificate verification</source>
        <translation>切换证书验证</translation>
    </message>
    <message>
        <source>Choose a profile…</source>
        <translation>选择配置…</translation>
    </message>
    <message>
        <source>The API the requests speak: it sets the path, whose end names it.</source>
        <translation>请求所用的 API：它决定路径，路径的结尾即表示 API。</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Change API</source>
        <translation>更改 API</translation>
    </message>
    <message numerus="yes">
        <source>capacity search: at most %n level(s) per variant</source>
        <translation>
            <numerusform>容量搜索：每个变体最多 %n 个级别</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at most about %1 for %n measured request(s); points stop once settled</source>
        <translation>
            <numerusform>最多约 %1，共 %n 个测量请求；负载点达到稳定即停止</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#8a5a00&quot;&gt;longer than a working day (8 h): fewer points, repeats or prompts shorten it&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;color:#8a5a00&quot;&gt;超过一个工作日（8 小时）：减少点、重复次数或提示可缩短&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>正在测试连接…</translation>
    </message>
</context>
<context>
    <name>ServeScope::FindingsList</name>
    <message>
        <source>No findings for the shown runs: they need a curve of two or more loads.</source>
        <translation>所显示的运行没有发现：发现需要至少两个负载点组成的曲线。</translation>
    </message>
</context>
<context>
    <name>ServeScope::Gui</name>
    <message>
        <source>ServeScope: benchmark experiments for OpenAI-compatible LLM endpoints</source>
        <translation>ServeScope：面向 OpenAI 兼容 LLM 端点的基准测试实验</translation>
    </message>
    <message>
        <source>Open the demo experiment in a new unsaved project.</source>
        <translation>在新的未保存项目中打开演示实验。</translation>
    </message>
    <message>
        <source>UI language, e.g. zh_CN (default: SERVESCOPE_LANG, then View &gt; Language, then the system locale).</source>
        <translation>界面语言，例如 zh_CN（默认依次取 SERVESCOPE_LANG、“视图 &gt; 语言”、系统区域设置）。</translation>
    </message>
    <message>
        <source>Run the local simulator this many times faster than real time (default 1, demo 8).</source>
        <translation>本地模拟器以实时速度的多少倍运行（默认 1，演示为 8）。</translation>
    </message>
    <message>
        <source>Start the run as soon as the experiment is loaded.</source>
        <translation>实验加载完成后立即开始运行。</translation>
    </message>
    <message>
        <source>Quit when the run ends; with SERVESCOPE_STALL_PROBE=1 print the longest GUI-thread stall.</source>
        <translation>运行结束后退出；设置 SERVESCOPE_STALL_PROBE=1 时打印 GUI 线程最长的卡顿时间。</translation>
    </message>
    <message>
        <source>Start the experiment&apos;s server launch commands without asking.</source>
        <translation>不经询问直接执行实验中的服务器启动命令。</translation>
    </message>
    <message>
        <source>A project (.servescope) or experiment file (.json, .toml) to open; vLLM or SGLang result files are imported into a new project.</source>
        <translation>要打开的项目（.servescope）或实验文件（.json、.toml）；vLLM 或 SGLang 结果文件会导入到新项目中。</translation>
    </message>
    <message>
        <source>file...</source>
        <translation>文件...</translation>
    </message>
    <message>
        <source>--time-scale needs a positive number</source>
        <translation>--time-scale 需要一个正数</translation>
    </message>
    <message>
        <source>the experiment cannot run:</source>
        <translation>实验无法运行：</translation>
    </message>
    <message>
        <source>the run did not finish: %1</source>
        <translation>运行未完成：%1</translation>
    </message>
    <message>
        <source>cannot import %1:</source>
        <translation>无法导入 %1：</translation>
    </message>
</context>
<context>
    <name>ServeScope::HeadlinePanel</name>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>%1, %2: A %3, B %4 %5</source>
        <translation>%1，%2：A %3，B %4 %5</translation>
    </message>
    <message>
        <source>Copy table</source>
        <translation>复制表格</translation>
    </message>
</context>
<context>
    <name>ServeScope::Import</name>
    <message>
        <source>random_range_ratio %1: SGLang&apos;s lengths [L x %1, L] read as a spread of %2 around %3 input and %4 output tokens</source>
        <translation>random_range_ratio %1：SGLang 的长度 [L x %1, L] 按以 %3 个输入 token、%4 个输出 token 为中心、幅度 %2 的分布读取</translation>
    </message>
    <message>
        <source>the run could not be stored: %1</source>
        <translation>无法保存该运行：%1</translation>
    </message>
    <message>
        <source>the imported runs could not be committed</source>
        <translation>无法提交导入的运行</translation>
    </message>
    <message>
        <source>not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>the JSON value is not an object</source>
        <translation>JSON 值不是对象</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>empty result file</source>
        <translation>结果文件为空</translation>
    </message>
    <message>
        <source>not a result file: the JSON value is not an object</source>
        <translation>不是结果文件：JSON 值不是对象</translation>
    </message>
    <message>
        <source>line %1: not a JSON object</source>
        <translation>第 %1 行：不是 JSON 对象</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>line %1: not a result ServeScope reads (no &quot;completed&quot; count of vLLM or SGLang, and no other tool&apos;s keys)</source>
        <translation>第 %1 行：不是 ServeScope 能读取的结果（既没有 vLLM 或 SGLang 的 &quot;completed&quot; 计数，也没有其他工具的键）</translation>
    </message>
    <message>
        <source>not a result ServeScope reads (no &quot;completed&quot; count of vLLM or SGLang, and no other tool&apos;s keys)</source>
        <translation>不是 ServeScope 能读取的结果（既没有 vLLM 或 SGLang 的 &quot;completed&quot; 计数，也没有其他工具的键）</translation>
    </message>
    <message>
        <source>AIPerf marks this run as cancelled: its figures cover the requests made before it stopped</source>
        <translation>AIPerf 将此运行标记为已取消：其数值只涵盖停止前发出的请求</translation>
    </message>
    <message>
        <source>%1: %2; the per-request records were not imported</source>
        <translation>%1：%2；逐请求记录未导入</translation>
    </message>
    <message>
        <source>%1 holds %2 of the run&apos;s %3 requests: the statistics stored are the file&apos;s own; the requests, and what ServeScope draws from them (bands, scatter, peaks), cover those %2 only</source>
        <translation>%1 只包含该运行 %3 个请求中的 %2 个：存储的统计量是文件自身的数值；存储的请求以及 ServeScope 据此绘制的内容（区间带、散点图、峰值）只涵盖这 %2 个</translation>
    </message>
    <message>
        <source>AIPerf&apos;s per-request records alone: the statistics are recomputed from them (import profile_export_aiperf.json for the figures AIPerf published)</source>
        <translation>只有 AIPerf 的逐请求记录：统计量由这些记录重新计算（导入 profile_export_aiperf.json 可获得 AIPerf 发布的数值）</translation>
    </message>
    <message>
        <source>looks like a result of %1 (%2), but its layout is not one ServeScope reads: key &quot;%3&quot; %4; nothing was imported</source>
        <translation>看起来是 %1 的结果（%2），但其结构不是 ServeScope 能读取的：键 &quot;%3&quot; %4；未导入任何内容</translation>
    </message>
    <message>
        <source>genai-bench file without _time_unit and no experiment_metadata.json beside it: times read as seconds, genai-bench&apos;s default</source>
        <translation>genai-bench 文件没有 _time_unit，旁边也没有 experiment_metadata.json：时间按秒读取（genai-bench 的默认单位）</translation>
    </message>
    <message>
        <source>GuideLLM&apos;s inter_token_latency_ms is stored as TPOT: per request the same formula, but GuideLLM weights its distribution by output tokens where vLLM weights each request once</source>
        <translation>GuideLLM 的 inter_token_latency_ms 存为 TPOT：每个请求的公式相同，但 GuideLLM 的分布按输出 token 数加权，而 vLLM 每个请求只计一次</translation>
    </message>
    <message>
        <source>GuideLLM&apos;s per-request records are not imported (only its statistics are stored)</source>
        <translation>GuideLLM 的逐请求记录未导入（只存储其统计量）</translation>
    </message>
    <message>
        <source>inference-perf&apos;s time_per_output_token (mean %1 ms) is about %2 of (latency - TTFT) / (output - 1) = %3 ms: the version that wrote it counted the blank lines between SSE events as tokens; TPOT is not stored</source>
        <translation>inference-perf 的 time_per_output_token（均值 %1 ms）约为 (延迟 - TTFT) / (输出 - 1) = %3 ms 的 %2 倍：写出该文件的版本把 SSE 事件之间的空行也计为 token；不存储 TPOT</translation>
    </message>
    <message>
        <source>inference-perf&apos;s summary pools every stage of the run into one point (no rate); import the stage_N files for one point per stage</source>
        <translation>inference-perf 的汇总把运行的所有阶段合并为一个负载点（没有速率）；导入 stage_N 文件可按阶段各得一个负载点</translation>
    </message>
    <message>
        <source>llmperf publishes no TPOT: it is recomputed from %1 as (e2e - ttft) / (output - 1), with llmperf&apos;s output counts (the text re-tokenized by a fixed llama tokenizer)</source>
        <translation>llmperf 不发布 TPOT：由 %1 按 (e2e - ttft) / (输出 - 1) 重新计算，使用 llmperf 的输出计数（用固定的 llama 分词器对文本重新分词）</translation>
    </message>
    <message>
        <source>llmperf&apos;s inter_token_latency_s includes TTFT (all chunk gaps and TTFT over output tokens): it is neither TPOT nor ITL and is not stored</source>
        <translation>llmperf 的 inter_token_latency_s 包含 TTFT（所有分块间隔加上 TTFT 再除以输出 token 数）：既不是 TPOT 也不是 ITL，不存储</translation>
    </message>
    <message>
        <source>llmperf&apos;s individual responses alone: statistics are recomputed from them, and without start times there is no duration, so no throughput (import %1 for llmperf&apos;s published figures)</source>
        <translation>只有 llmperf 的逐请求响应：统计量由它们重新计算；没有开始时间就没有持续时间，因此没有吞吐量（导入 %1 可获得 llmperf 发布的数值）</translation>
    </message>
    <message>
        <source>an llm-d Benchmark Report carries its harness&apos;s figures as that harness defines them (%1): TTFT, TPOT and latency are stored; ITL only from vLLM&apos;s benchmark or ServeScope under vLLM&apos;s definitions; throughput is the report&apos;s mean rate</source>
        <translation>llm-d Benchmark Report 中的数值按其压测工具的定义给出（%1）：已存储 TTFT、TPOT 和延迟；ITL 仅在来自 vLLM 的 benchmark 或采用 vLLM 定义的 ServeScope 时存储；吞吐量取报告中的平均速率</translation>
    </message>
    <message>
        <source>files in the folder that are not Benchmark Reports were left out: %1</source>
        <translation>文件夹中不是 Benchmark Report 的文件已被略过：%1</translation>
    </message>
    <message>
        <source>looks like an llm-d Benchmark Report, but its YAML is not read at line %1: %2; nothing was imported</source>
        <translation>看起来是 llm-d Benchmark Report，但第 %1 行的 YAML 无法读取：%2；未导入任何内容</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is %2, which is no count: stored as %3, recomputed from the per-request arrays</source>
        <translation>“%1” 为 %2，不是计数：已按逐请求数组重新计算，存为 %3</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is %2, but a count is a whole number from 0 to %3: the line is not imported</source>
        <translation>“%1” 为 %2，但计数必须是 0 到 %3 之间的整数：该行未导入</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has %2 entries but &quot;ttfts&quot; has %3: the per-request arrays disagree, the line is not imported</source>
        <translation>“%1” 有 %2 项，而 “ttfts” 有 %3 项：逐请求数组长度不一致，该行未导入</translation>
    </message>
    <message>
        <source>&quot;completed&quot; %1 and &quot;failed&quot; %2 count more requests than the %3 of the per-request arrays, which have no &quot;errors&quot; to recompute them from: the line is not imported</source>
        <translation>“completed” %1 与 “failed” %2 计入的请求多于逐请求数组中的 %3 个，且数组没有可用于重新计算的 “errors”：该行未导入</translation>
    </message>
    <message>
        <source>&quot;completed&quot; %1 and &quot;failed&quot; %2 count more requests than the %3 of the per-request arrays: stored as %4 and %5, recomputed from them</source>
        <translation>“completed” %1 与 “failed” %2 计入的请求多于逐请求数组中的 %3 个：已按数组重新计算，存为 %4 和 %5</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an array of per-request values (numbers; for itls, arrays of numbers)</source>
        <translation>“%1” 不是逐请求值的数组（应为数字；itls 应为数字数组）</translation>
    </message>
    <message>
        <source>not a result file: expected a JSON object, or JSON lines, of vLLM or SGLang results (or another benchmark tool&apos;s result file); line %1 is no JSON object</source>
        <translation>不是结果文件：应为 vLLM 或 SGLang 结果的 JSON 对象或 JSON Lines（或其他基准测试工具的结果文件）；第 %1 行不是 JSON 对象</translation>
    </message>
    <message>
        <source>&quot;%1&quot; of request %2, which completed, is no time (not a finite number of seconds from 0): the line is not imported</source>
        <translation>已完成的请求 %2 的“%1”不是有效时间（不是从 0 起的有限秒数）：该行未导入</translation>
    </message>
</context>
<context>
    <name>ServeScope::ImportFlow</name>
    <message>
        <source>Cannot import %1:
%2</source>
        <translation>无法导入 %1：
%2</translation>
    </message>
    <message>
        <source>Import failed; see the log.</source>
        <translation>导入失败，请查看日志。</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>已导入 %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 with %n warning(s); see the log.</source>
        <translation>
            <numerusform>已导入 %1，有 %n 条警告；见日志。</numerusform>
        </translation>
    </message>
    <message>
        <source>Import experiment</source>
        <translation>导入实验</translation>
    </message>
    <message>
        <source>Experiment files (*.json *.toml)</source>
        <translation>实验文件 (*.json *.toml)</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Paste command line</source>
        <translation>粘贴命令行</translation>
    </message>
    <message>
        <source>The experiment can be changed when the run in progress has ended.</source>
        <translation>正在进行的运行结束后才能修改实验。</translation>
    </message>
    <message>
        <source>Command line applied to the experiment</source>
        <translation>命令行已应用到实验</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Import results</source>
        <translation>导入结果</translation>
    </message>
    <message>
        <source>Results can be imported when the run in progress has ended.</source>
        <translation>正在进行的运行结束后才能导入结果。</translation>
    </message>
    <message>
        <source>Already imported</source>
        <translation>已经导入过</translation>
    </message>
    <message>
        <source>This project already holds the runs imported from %1.</source>
        <translation>本项目已包含从 %1 导入的运行。</translation>
    </message>
    <message>
        <source>Open the existing runs</source>
        <translation>打开已有的运行</translation>
    </message>
    <message>
        <source>Import again</source>
        <translation>再次导入</translation>
    </message>
    <message>
        <source>Merge shards</source>
        <translation>合并分片</translation>
    </message>
    <message>
        <source>Shards can be merged when the run in progress has ended.</source>
        <translation>当前运行结束后才能合并分片。</translation>
    </message>
    <message numerus="yes">
        <source>Merging %n shard(s)…</source>
        <translation>
            <numerusform>正在合并 %n 个分片…</numerusform>
        </translation>
    </message>
    <message>
        <source>The shards were not merged.</source>
        <translation>分片未合并。</translation>
    </message>
    <message>
        <source>The shards were not merged: %1</source>
        <translation>分片未合并：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n shard(s) merged into run %1: %2 requests completed, %3 failed.</source>
        <translation>
            <numerusform>%n 个分片已合并为运行 %1：完成 %2 个请求，失败 %3 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>The shards&apos; first requests were %1 ms apart; at the widest point (%2) %3 ms.</source>
        <translation>各分片首个请求相差 %1 毫秒；相差最大的负载点（%2）为 %3 毫秒。</translation>
    </message>
    <message>
        <source>Findings:</source>
        <translation>发现：</translation>
    </message>
    <message>
        <source>Shards merged into run %1.</source>
        <translation>分片已合并为运行 %1。</translation>
    </message>
</context>
<context>
    <name>ServeScope::KeyValueTable</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>ServeScope::LoadPointsModel</name>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>并发数</translation>
    </message>
    <message>
        <source>Rate (req/s)</source>
        <translation>速率（请求/秒）</translation>
    </message>
    <message>
        <source>Burstiness</source>
        <translation>突发度</translation>
    </message>
    <message>
        <source>Max concurrency</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation>提示数</translation>
    </message>
    <message>
        <source>Max seconds</source>
        <translation>最长秒数</translation>
    </message>
    <message>
        <source>Edit load point %1</source>
        <translation>编辑负载点 %1</translation>
    </message>
    <message>
        <source>Add load point</source>
        <translation>添加负载点</translation>
    </message>
    <message>
        <source>Remove load point %1</source>
        <translation>删除负载点 %1</translation>
    </message>
    <message>
        <source>Move load point %1</source>
        <translation>移动负载点 %1</translation>
    </message>
    <message>
        <source>Apply concurrency gradient</source>
        <translation>应用并发梯度</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number or &quot;inf&quot;.</source>
        <translation>%1：“%2”不是数字，也不是“inf”。</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number.</source>
        <translation>%1：“%2”不是数字。</translation>
    </message>
    <message>
        <source>%1 must be a whole number; %2 was not applied.</source>
        <translation>%1 必须是整数；%2 未被采用。</translation>
    </message>
    <message>
        <source>%1 must be between %2 and %3; %4 was not applied.</source>
        <translation>%1 必须介于 %2 与 %3 之间；%4 未被采用。</translation>
    </message>
</context>
<context>
    <name>ServeScope::LoadTab</name>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Prompts and sampling</source>
        <translation>提示与采样</translation>
    </message>
    <message>
        <source>Random tokens</source>
        <translation>随机 token</translation>
    </message>
    <message>
        <source>Sonnet</source>
        <translation>十四行诗</translation>
    </message>
    <message>
        <source>ShareGPT file</source>
        <translation>ShareGPT 文件</translation>
    </message>
    <message>
        <source>Custom file</source>
        <translation>自定义文件</translation>
    </message>
    <message>
        <source>Shared prefixes (groups)</source>
        <translation>共享前缀（分组）</translation>
    </message>
    <message>
        <source>Trace replay (Mooncake, Azure, BurstGPT)</source>
        <translation>追踪回放（Mooncake、Azure、BurstGPT）</translation>
    </message>
    <message>
        <source>Multi-turn sessions (chat)</source>
        <translation>多轮会话（对话）</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Change dataset</source>
        <translation>修改数据集</translation>
    </message>
    <message>
        <source>Change dataset file</source>
        <translation>修改数据集文件</translation>
    </message>
    <message>
        <source>Dataset file</source>
        <translation>数据集文件</translation>
    </message>
    <message>
        <source>Told from the file</source>
        <translation>由文件判断</translation>
    </message>
    <message>
        <source>Mooncake JSONL</source>
        <translation>Mooncake JSONL</translation>
    </message>
    <message>
        <source>Azure LLM inference CSV</source>
        <translation>Azure LLM 推理 CSV</translation>
    </message>
    <message>
        <source>BurstGPT CSV</source>
        <translation>BurstGPT CSV</translation>
    </message>
    <message>
        <source>Change trace format</source>
        <translation>更改追踪格式</translation>
    </message>
    <message>
        <source>Trace format</source>
        <translation>追踪格式</translation>
    </message>
    <message>
        <source>Tokens of one Mooncake hash_ids block: requests that name the same blocks share those tokens exactly (512 in Mooncake&apos;s published traces).</source>
        <translation>一个 Mooncake hash_ids 块的词元数：列出相同块的请求完全共享这些词元（Mooncake 公开追踪中为 512）。</translation>
    </message>
    <message>
        <source>Change trace block size</source>
        <translation>更改追踪块大小</translation>
    </message>
    <message>
        <source>Block size (tokens)</source>
        <translation>块大小（词元）</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Change seed</source>
        <translation>修改随机种子</translation>
    </message>
    <message>
        <source>Change range ratio</source>
        <translation>修改范围比例</translation>
    </message>
    <message>
        <source>Length range ratio</source>
        <translation>长度范围比例</translation>
    </message>
    <message>
        <source>Sonnet and shared prefixes: the tokens every prompt (of a group) starts with; the rest of the input length is the prompt&apos;s own. Multi-turn sessions: the tokens of the system prompt every session starts with (0: none).</source>
        <translation>Sonnet 与共享前缀：每个提示（同组内）开头共有的 token 数；输入长度的其余部分为提示自身的内容。多轮会话：每个会话开头的系统提示的 token 数（0：无）。</translation>
    </message>
    <message>
        <source>Change prefix length</source>
        <translation>修改前缀长度</translation>
    </message>
    <message>
        <source>Prefix length (tokens)</source>
        <translation>前缀长度（token）</translation>
    </message>
    <message>
        <source>Multi-turn sessions: the turns of one session. Each turn sends the conversation so far, the server&apos;s own answers included, and a new message: of the point&apos;s input length, or with a ShareGPT file as the dataset file, the user&apos;s next message of a conversation; concurrency counts sessions in flight.</source>
        <translation>多轮会话：一个会话的轮数。每一轮发送迄今为止的对话（包括服务器自己的回答）以及一条新消息：长度为该负载点的输入长度；若数据集文件是 ShareGPT 文件，则为对话中用户的下一条消息。并发数统计进行中的会话数。</translation>
    </message>
    <message>
        <source>Change turns per session</source>
        <translation>修改每个会话的轮数</translation>
    </message>
    <message>
        <source>Turns per session</source>
        <translation>每个会话的轮数</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Multi-turn sessions: how long a user reads an answer before the next turn is sent.</source>
        <translation>多轮会话：用户阅读一条回答、再发送下一轮之前的时间。</translation>
    </message>
    <message>
        <source>Change think time</source>
        <translation>修改思考时间</translation>
    </message>
    <message>
        <source>Think time between turns</source>
        <translation>轮次间的思考时间</translation>
    </message>
    <message>
        <source>Shared prefixes: how many different prefixes the prompts share.</source>
        <translation>共享前缀：提示词共用多少个不同的前缀。</translation>
    </message>
    <message>
        <source>Change prefix groups</source>
        <translation>修改前缀组数</translation>
    </message>
    <message>
        <source>Prefix groups</source>
        <translation>前缀组数</translation>
    </message>
    <message>
        <source>Shared prefixes: 0 uses every group equally often; above 0 a request&apos;s group is drawn with this Zipf exponent, so the first groups are the most popular.</source>
        <translation>共享前缀：0 表示各组使用次数相同；大于 0 时按此 Zipf 指数抽取请求所属的组，排在前面的组最常用。</translation>
    </message>
    <message>
        <source>Change group skew</source>
        <translation>修改分组偏斜</translation>
    </message>
    <message>
        <source>Group skew (Zipf exponent)</source>
        <translation>分组偏斜（Zipf 指数）</translation>
    </message>
    <message>
        <source>Ask the server to ignore end-of-sequence (exact output lengths)</source>
        <translation>要求服务器忽略结束符（精确输出长度）</translation>
    </message>
    <message>
        <source>Toggle ignore_eos</source>
        <translation>切换 ignore_eos</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Edit sampling parameters</source>
        <translation>编辑采样参数</translation>
    </message>
    <message>
        <source>Load matrix</source>
        <translation>负载矩阵</translation>
    </message>
    <message>
        <source>Closed loop (concurrency)</source>
        <translation>闭环（并发数）</translation>
    </message>
    <message>
        <source>Open loop (request rate)</source>
        <translation>开环（请求速率）</translation>
    </message>
    <message>
        <source>Capacity search (largest load within SLOs)</source>
        <translation>容量搜索（满足 SLO 的最大负载）</translation>
    </message>
    <message>
        <source>Change load mode</source>
        <translation>修改负载模式</translation>
    </message>
    <message>
        <source>Add point</source>
        <translation>添加负载点</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Concurrency gradient %1</source>
        <translation>并发梯度 %1</translation>
    </message>
    <message>
        <source>Point %1: %2</source>
        <translation>第 %1 个负载点：%2</translation>
    </message>
    <message>
        <source>Copy as vllm bench serve command</source>
        <translation>复制为 vllm bench serve 命令</translation>
    </message>
    <message>
        <source>Copy as sglang.bench_serving command</source>
        <translation>复制为 sglang.bench_serving 命令</translation>
    </message>
    <message>
        <source>Warmup, repeats and timeouts</source>
        <translation>预热、重复与超时</translation>
    </message>
    <message>
        <source>Warmup requests per point</source>
        <translation>每个负载点的预热请求数</translation>
    </message>
    <message>
        <source>Change warmup</source>
        <translation>修改预热</translation>
    </message>
    <message>
        <source>Discard ratio (steady window)</source>
        <translation>丢弃比例（稳态窗口）</translation>
    </message>
    <message>
        <source>Change discard ratio</source>
        <translation>修改丢弃比例</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Change repeats</source>
        <translation>修改重复次数</translation>
    </message>
    <message>
        <source>off (every planned request)</source>
        <translation>关闭（发送所有计划请求）</translation>
    </message>
    <message>
        <source>Stop a point once the 95% intervals of its TTFT, TPOT and E2EL medians are narrower than this share of the median; requests in flight finish, and the point&apos;s findings say it stopped early.</source>
        <translation>当负载点的 TTFT、TPOT 和 E2EL 中位数的 95% 区间窄于中位数的这一比例时停止该负载点；在途请求照常完成，该负载点的发现会注明提前停止。</translation>
    </message>
    <message>
        <source>Stop once medians are known within</source>
        <translation>中位数精度达到以下范围即停止</translation>
    </message>
    <message>
        <source>Change when a point stops early</source>
        <translation>更改负载点提前停止的条件</translation>
    </message>
    <message>
        <source>…after at least (successful requests)</source>
        <translation>…至少在以下数量成功请求之后</translation>
    </message>
    <message>
        <source>Change the early stop&apos;s minimum</source>
        <translation>更改提前停止的最少请求数</translation>
    </message>
    <message>
        <source>In a capacity search, stop a level once its SLO verdict is decided</source>
        <translation>容量搜索中，档位的 SLO 判定一旦确定即停止该档位</translation>
    </message>
    <message>
        <source>Toggle stopping a level once decided</source>
        <translation>切换判定确定后停止档位</translation>
    </message>
    <message>
        <source>Connect timeout</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <source>First-token timeout</source>
        <translation>首 token 超时</translation>
    </message>
    <message>
        <source>Idle timeout</source>
        <translation>空闲超时</translation>
    </message>
    <message>
        <source>Total timeout</source>
        <translation>总超时</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>更改%1</translation>
    </message>
    <message>
        <source>Reset the server&apos;s prefix cache between points</source>
        <translation>在负载点之间重置服务器的前缀缓存</translation>
    </message>
    <message>
        <source>Toggle prefix-cache reset</source>
        <translation>切换前缀缓存重置</translation>
    </message>
    <message>
        <source>A capacity search measures a level again only when its interval straddles a bound; set how often in the search&apos;s settings.</source>
        <translation>容量搜索只在某一级别的区间跨越上限时才再次测量；次数在搜索设置中设定。</translation>
    </message>
    <message>
        <source>System prompt (tokens)</source>
        <translation>系统提示（token）</translation>
    </message>
    <message>
        <source>empty: generated sessions; or a ShareGPT file, whose conversations are the sessions</source>
        <translation>留空：生成会话；或填写 ShareGPT 文件，以其中的对话作为会话</translation>
    </message>
    <message>
        <source>empty: the built-in sonnet</source>
        <translation>留空：使用内置的 sonnet</translation>
    </message>
</context>
<context>
    <name>ServeScope::LogDock</name>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Filter the server&apos;s output</source>
        <translation>筛选服务器输出</translation>
    </message>
    <message>
        <source>Select one run: the output of the servers it launched appears here.</source>
        <translation>选择一次运行：它启动的服务器的输出会显示在这里。</translation>
    </message>
    <message>
        <source>Server log</source>
        <translation>服务器日志</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
</context>
<context>
    <name>ServeScope::MainWindow</name>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>ServeScope projects (*.servescope)</source>
        <translation>ServeScope 项目 (*.servescope)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New project</source>
        <translation>新建项目(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open the &amp;demo</source>
        <translation>打开演示(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import experiment…</source>
        <translation>导入实验(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>&amp;Export experiment…</source>
        <translation>导出实验(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export experiment</source>
        <translation>导出实验</translation>
    </message>
    <message>
        <source>Experiment JSON (*.json)</source>
        <translation>实验 JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Endpoint &amp;profiles…</source>
        <translation>端点配置(&amp;P)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>no project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <source>unsaved project</source>
        <translation>未保存的项目</translation>
    </message>
    <message>
        <source>%1[*] — ServeScope</source>
        <translation>%1[*] — ServeScope</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>This run launched no server: only launched servers&apos; output is kept.</source>
        <translation>本次运行没有启动服务器：只保留由 ServeScope 启动的服务器的输出。</translation>
    </message>
    <message>
        <source>Import &amp;results…</source>
        <translation>导入结果(&amp;R)…</translation>
    </message>
    <message>
        <source>Import results</source>
        <translation>导入结果</translation>
    </message>
    <message>
        <source>Paste &amp;command line…</source>
        <translation>粘贴命令行(&amp;C)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+V</source>
        <translation>Ctrl+Shift+V</translation>
    </message>
    <message>
        <source>&amp;Team runs…</source>
        <translation>团队运行(&amp;T)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>&amp;Merge shards…</source>
        <translation>合并分片(&amp;M)…</translation>
    </message>
    <message>
        <source>Merge shards: one project file per shard</source>
        <translation>合并分片：每个分片一个项目文件</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Result files of vLLM, SGLang, AIPerf, GuideLLM, genai-bench, inference-perf, llmperf or llm-d (*.json *.jsonl *.yaml *.yml)</source>
        <translation>vLLM、SGLang、AIPerf、GuideLLM、genai-bench、inference-perf、llmperf 或 llm-d 的结果文件 (*.json *.jsonl *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Every page of the project file is read to find damage. The runs can be used meanwhile; opening another file or closing the window stops it.</source>
        <translation>正在逐页读取项目文件以查找损坏。其间可以照常使用各次运行；打开另一个文件或关闭窗口会停止检查。</translation>
    </message>
</context>
<context>
    <name>ServeScope::Merge</name>
    <message>
        <source>clock-unknown %1: its clock offset is not known</source>
        <translation>clock-unknown %1：其时钟偏差未知</translation>
    </message>
    <message>
        <source>clock-unsynchronized %1: adjtimex reports the clock not synchronized; the shards&apos; common start is only as good as their clocks&apos; agreement</source>
        <translation>clock-unsynchronized %1：adjtimex 报告时钟未同步；各分片共同的开始时间只能和它们时钟的一致程度一样准确</translation>
    </message>
    <message>
        <source>clock-skew %1: offset plus estimated error %2 ms exceeds %3 ms</source>
        <translation>clock-skew %1：偏差加估计误差为 %2 毫秒，超过 %3 毫秒</translation>
    </message>
    <message>
        <source>shard-start-spread %1 ms between the first and last shard&apos;s first request exceeds %2 ms</source>
        <translation>shard-start-spread 最早与最晚分片的首个请求相差 %1 毫秒，超过 %2 毫秒</translation>
    </message>
    <message>
        <source>shard-point-start-spread %1 ms between the shards&apos; first requests at %2 exceeds %3 ms: a point outlasted --point-slot %4 s</source>
        <translation>shard-point-start-spread 在 %2 各分片首个请求相差 %1 毫秒，超过 %3 毫秒：有负载点超出了 --point-slot %4 秒</translation>
    </message>
</context>
<context>
    <name>ServeScope::MetricName</name>
    <message>
        <source>Output throughput</source>
        <translation>输出吞吐</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>Total token throughput</source>
        <translation>总 token 吞吐</translation>
    </message>
    <message>
        <source>Request throughput</source>
        <translation>请求吞吐</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Success rate</source>
        <translation>成功率</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>std dev</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Cost per million output tokens</source>
        <translation>每百万输出 token 成本</translation>
    </message>
    <message>
        <source>Prompt cache hit rate</source>
        <translation>提示词缓存命中率</translation>
    </message>
    <message>
        <source>%1, first turns</source>
        <translation>%1（首轮）</translation>
    </message>
    <message>
        <source>%1, later turns</source>
        <translation>%1（后续轮次）</translation>
    </message>
</context>
<context>
    <name>ServeScope::PointTableModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>负载点</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Success (%)</source>
        <translation>成功率（%）</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Output (tok/s)</source>
        <translation>输出（token/秒）</translation>
    </message>
    <message>
        <source>Goodput (req/s)</source>
        <translation>有效吞吐（请求/秒）</translation>
    </message>
    <message>
        <source>TTFT p50 (ms)</source>
        <translation>TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>TTFT p99 (ms)</source>
        <translation>TTFT p99（毫秒）</translation>
    </message>
    <message>
        <source>TPOT p50 (ms)</source>
        <translation>TPOT p50（毫秒）</translation>
    </message>
    <message>
        <source>TPOT p99 (ms)</source>
        <translation>TPOT p99（毫秒）</translation>
    </message>
    <message>
        <source>ITL p50 (ms)</source>
        <translation>ITL p50（毫秒）</translation>
    </message>
    <message>
        <source>ITL p99 (ms)</source>
        <translation>ITL p99（毫秒）</translation>
    </message>
    <message>
        <source>E2EL p50 (ms)</source>
        <translation>E2EL p50（毫秒）</translation>
    </message>
    <message>
        <source>E2EL p99 (ms)</source>
        <translation>E2EL p99（毫秒）</translation>
    </message>
    <message>
        <source>Server running (mean)</source>
        <translation>服务器运行中（均值）</translation>
    </message>
    <message>
        <source>Server waiting (max)</source>
        <translation>服务器等待中（最大）</translation>
    </message>
    <message>
        <source>KV cache (max %)</source>
        <translation>KV 缓存（最大 %）</translation>
    </message>
    <message>
        <source>Preemptions</source>
        <translation>抢占次数</translation>
    </message>
    <message>
        <source>GPU util (%)</source>
        <translation>GPU 利用率（%）</translation>
    </message>
    <message>
        <source>Dispatch lag p99 (ms)</source>
        <translation>派发延迟 p99（毫秒）</translation>
    </message>
    <message>
        <source>Client CPU (%)</source>
        <translation>客户端 CPU（%）</translation>
    </message>
    <message>
        <source>Spread across repeats</source>
        <translation>各次重复的离散度</translation>
    </message>
    <message>
        <source>rate inf</source>
        <translation>速率 inf</translation>
    </message>
    <message>
        <source>%1 req/s</source>
        <translation>%1 请求/秒</translation>
    </message>
    <message>
        <source>c=%1</source>
        <translation>c=%1</translation>
    </message>
    <message>
        <source>Estimated: %1 of %2 requests had no usage and the server no /tokenize, so their output tokens are the number of content events.</source>
        <translation>估计值：%2 个请求中有 %1 个没有用量信息，且服务器没有 /tokenize，因此其输出 token 数按内容事件数计。</translation>
    </message>
    <message>
        <source>Estimated input: %1 of %2 requests had no usage and the server no /tokenize, so their input tokens are an estimate (calibrated with max_tokens 1 probes, else the target length).</source>
        <translation>输入为估计值：%2 个请求中有 %1 个没有 usage 且服务器没有 /tokenize，因此其输入 token 数为估计值（用 max_tokens 为 1 的探测校准，否则取目标长度）。</translation>
    </message>
    <message>
        <source>No steady window: the point never had all its slots busy at once.</source>
        <translation>没有稳态窗口：该负载点的槽位从未同时全部忙碌。</translation>
    </message>
    <message>
        <source>median of %1</source>
        <translation>%1 次的中位数</translation>
    </message>
    <message>
        <source>%1: spread %2%, CV %3%</source>
        <translation>%1：离散度 %2%，变异系数 %3%</translation>
    </message>
    <message>
        <source>%1% (%2)</source>
        <translation>%1%（%2）</translation>
    </message>
    <message>
        <source>Every headline metric&apos;s repeats agree within 5% ((max − min) / median and CV).</source>
        <translation>每项主要指标的各次重复都相差在 5% 以内（（最大 − 最小）/ 中位数及变异系数）。</translation>
    </message>
    <message>
        <source>Not reproducible at this point:
%1</source>
        <translation>该负载点不可复现：
%1</translation>
    </message>
    <message>
        <source>Partial: the run&apos;s process stopped here; %1 of the %2 planned requests completed and were stored, and are summarised here.</source>
        <translation>不完整：运行的进程在此停止；计划的 %2 个请求中有 %1 个已完成并保存，此处据此汇总。</translation>
    </message>
    <message>
        <source>TTFO p50 (ms)</source>
        <translation>TTFO p50（毫秒）</translation>
    </message>
    <message>
        <source>TTFO p99 (ms)</source>
        <translation>TTFO p99（毫秒）</translation>
    </message>
    <message>
        <source>Prompt cached (%)</source>
        <translation>提示词缓存命中（%）</translation>
    </message>
    <message>
        <source>Server prefix cache hits (%)</source>
        <translation>服务器前缀缓存命中（%）</translation>
    </message>
    <message>
        <source>First turns&apos; TTFT p50 (ms)</source>
        <translation>首轮 TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>Later turns&apos; TTFT p50 (ms)</source>
        <translation>后续轮次 TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>Later turns&apos; prompt cached (%)</source>
        <translation>后续轮次提示词缓存命中（%）</translation>
    </message>
    <message numerus="yes">
        <source>Partial: the run was cancelled here; %1 of the %2 planned requests completed, %n cancelled in flight.</source>
        <translation>
            <numerusform>不完整：运行在此处被取消；计划的 %2 个请求中完成了 %1 个，%n 个在进行中被取消。</numerusform>
        </translation>
    </message>
    <message>
        <source>Partial: the run was cancelled here, between two requests; %1 of the %2 planned requests completed.</source>
        <translation>不完整：运行在两个请求之间于此处被取消；计划的 %2 个请求中完成了 %1 个。</translation>
    </message>
</context>
<context>
    <name>ServeScope::Problem</name>
    <message>
        <source>must be at least %1</source>
        <translation>不能小于 %1</translation>
    </message>
    <message>
        <source>must be at most %1</source>
        <translation>不能大于 %1</translation>
    </message>
    <message>
        <source>must be a finite number</source>
        <translation>必须是有限数值</translation>
    </message>
    <message>
        <source>port &apos;%1&apos; is not a number in 1..65535</source>
        <translation>端口“%1”不是 1..65535 之间的数字</translation>
    </message>
    <message>
        <source>must be a URL starting with %1://</source>
        <translation>必须是以 %1:// 开头的 URL</translation>
    </message>
    <message>
        <source>must not contain a user name or password</source>
        <translation>不能包含用户名或密码</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>must start with /</source>
        <translation>必须以 / 开头</translation>
    </message>
    <message>
        <source>has no effect: the base URL is not https://</source>
        <translation>不起作用：基础 URL 不是 https://</translation>
    </message>
    <message>
        <source>the server&apos;s certificate is not checked: anyone on the path can read the key and the answers</source>
        <translation>不校验服务器证书：链路上的任何人都能读到密钥和响应</translation>
    </message>
    <message>
        <source>is not used while tls_skip_verify is true</source>
        <translation>tls_skip_verify 为 true 时不会使用</translation>
    </message>
    <message>
        <source>must be an environment variable name</source>
        <translation>必须是环境变量名</translation>
    </message>
    <message>
        <source>cannot be combined with api_key_env</source>
        <translation>不能与 api_key_env 同时使用</translation>
    </message>
    <message>
        <source>is not a valid header name</source>
        <translation>不是有效的请求头名称</translation>
    </message>
    <message>
        <source>would hold a secret; use api_key_env or keychain_entry</source>
        <translation>会存放密钥；请改用 api_key_env 或 keychain_entry</translation>
    </message>
    <message>
        <source>is given twice</source>
        <translation>重复出现</translation>
    </message>
    <message>
        <source>carries the API key: use api_key_env or keychain_entry</source>
        <translation>携带了 API 密钥：请改用 api_key_env 或 keychain_entry</translation>
    </message>
    <message>
        <source>needs a name</source>
        <translation>需要名称</translation>
    </message>
    <message>
        <source>repeats the name %1</source>
        <translation>名称 %1 重复</translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation>必须是以下之一：%1</translation>
    </message>
    <message>
        <source>is not a valid flag name</source>
        <translation>不是有效的参数名</translation>
    </message>
    <message>
        <source>must name a program</source>
        <translation>必须指定一个程序</translation>
    </message>
    <message>
        <source>placeholder {%1} names no server.args value</source>
        <translation>占位符 {%1} 没有对应的 server.args 值</translation>
    </message>
    <message>
        <source>must be a path starting with /</source>
        <translation>必须是以 / 开头的路径</translation>
    </message>
    <message>
        <source>is not an environment variable name</source>
        <translation>不是环境变量名</translation>
    </message>
    <message>
        <source>is required for the %1 dataset</source>
        <translation>%1 数据集必须提供</translation>
    </message>
    <message>
        <source>is not a valid parameter name</source>
        <translation>不是有效的参数名</translation>
    </message>
    <message>
        <source>must have a value</source>
        <translation>必须有值</translation>
    </message>
    <message>
        <source>is set by ServeScope itself</source>
        <translation>由 ServeScope 自行设置</translation>
    </message>
    <message>
        <source>is only allowed when load.mode is rate</source>
        <translation>仅在 load.mode 为 rate 时允许</translation>
    </message>
    <message>
        <source>must be greater than 0 (or &quot;inf&quot;)</source>
        <translation>必须大于 0（或为 &quot;inf&quot;）</translation>
    </message>
    <message>
        <source>is only allowed when load.mode is concurrency (use max_concurrency)</source>
        <translation>仅在 load.mode 为 concurrency 时允许（请改用 max_concurrency）</translation>
    </message>
    <message>
        <source>needs a stop rule: num_prompts and/or max_seconds</source>
        <translation>需要停止条件：num_prompts 和/或 max_seconds</translation>
    </message>
    <message>
        <source>is required with an infinite request_rate</source>
        <translation>request_rate 为无穷大时必须提供</translation>
    </message>
    <message>
        <source>fewer than 5 x concurrency (%1) prompts; the point barely leaves its ramp</source>
        <translation>提示数少于 5 × 并发（%1）；该负载点几乎走不出爬坡阶段</translation>
    </message>
    <message>
        <source>needs at least one point</source>
        <translation>至少需要一个负载点</translation>
    </message>
    <message>
        <source>repeats the point label %1</source>
        <translation>负载点标签 %1 重复</translation>
    </message>
    <message>
        <source>needs load.mode concurrency</source>
        <translation>需要 load.mode 为 concurrency</translation>
    </message>
    <message>
        <source>is longer than total_s</source>
        <translation>比 total_s 还长</translation>
    </message>
    <message>
        <source>needs at least one percentile</source>
        <translation>至少需要一个百分位</translation>
    </message>
    <message>
        <source>must be greater than 0 and at most 100</source>
        <translation>必须大于 0 且不超过 100</translation>
    </message>
    <message>
        <source>must be greater than the previous percentile</source>
        <translation>必须大于前一个百分位</translation>
    </message>
    <message>
        <source>must be one of ttft, tpot, itl, e2el</source>
        <translation>必须是 ttft、tpot、itl、e2el 之一</translation>
    </message>
    <message>
        <source>repeats a metric</source>
        <translation>指标重复</translation>
    </message>
    <message>
        <source>must be a positive number of milliseconds</source>
        <translation>必须是正的毫秒数</translation>
    </message>
    <message>
        <source>needs at least one variant</source>
        <translation>至少需要一个变体</translation>
    </message>
    <message>
        <source>repeats the variant name %1</source>
        <translation>变体名 %1 重复</translation>
    </message>
    <message>
        <source>is not a known variable</source>
        <translation>不是已知变量</translation>
    </message>
    <message>
        <source>more than one variant is marked baseline</source>
        <translation>不止一个变体被标为基线</translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation>必须是整数</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须是数字</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>must be a list of strings</source>
        <translation>必须是字符串列表</translation>
    </message>
    <message>
        <source>changes %1 variables (%2) without a reason</source>
        <translation>改动了 %1 个变量（%2）却没有说明理由</translation>
    </message>
    <message>
        <source>no server.launch.argv to apply it; the server must be restarted with it by hand</source>
        <translation>没有 server.launch.argv 来应用它；需要手动用它重启服务器</translation>
    </message>
    <message>
        <source>server.launch.argv has no {%1} placeholder</source>
        <translation>server.launch.argv 中没有 {%1} 占位符</translation>
    </message>
    <message>
        <source>unknown key; ignored</source>
        <translation>未知的键；已忽略</translation>
    </message>
    <message>
        <source>contradicts max_concurrency: give the concurrency levels once</source>
        <translation>与 max_concurrency 矛盾：并发级别只需给出一次</translation>
    </message>
    <message>
        <source>contradicts a finite request_rate: a gradient is closed loop</source>
        <translation>与有限的 request_rate 矛盾：梯度是闭环负载</translation>
    </message>
    <message>
        <source>must be numbers separated by commas</source>
        <translation>必须是以逗号分隔的数字</translation>
    </message>
    <message>
        <source>entries must look like ttft:500, tpot:50 or e2el:2000</source>
        <translation>各项须形如 ttft:500、tpot:50 或 e2el:2000</translation>
    </message>
    <message>
        <source>must be one of vllm, sglang</source>
        <translation>必须是 vllm、sglang 之一</translation>
    </message>
    <message>
        <source>must be one of vllm, sglang, openai-strict</source>
        <translation>必须是 vllm、sglang、openai-strict 之一</translation>
    </message>
    <message>
        <source>must be [name, value] or [name, value, source]</source>
        <translation>必须是 [名称, 值] 或 [名称, 值, 来源]</translation>
    </message>
    <message>
        <source>must be a string, number or boolean</source>
        <translation>必须是字符串、数字或布尔值</translation>
    </message>
    <message>
        <source>must be one of typed, captured, probe</source>
        <translation>必须是 typed、captured、probe 之一</translation>
    </message>
    <message>
        <source>has no value; ignored</source>
        <translation>没有值；已忽略</translation>
    </message>
    <message>
        <source>must be an object of fields or a list of [name, value, source]</source>
        <translation>必须是字段对象，或 [名称, 值, 来源] 的列表</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <source>cannot be combined with points</source>
        <translation>不能与 points 同时使用</translation>
    </message>
    <message>
        <source>is only allowed with concurrency_gradient (set it per point)</source>
        <translation>只能与 concurrency_gradient 一起使用（请在各负载点中设置）</translation>
    </message>
    <message>
        <source>needs at least one [load_matrix.NAME] table</source>
        <translation>至少需要一个 [load_matrix.NAME] 表</translation>
    </message>
    <message>
        <source>must be one of concurrency, rate</source>
        <translation>必须是 concurrency、rate 之一</translation>
    </message>
    <message>
        <source> (line %1)</source>
        <translation>（第 %1 行）</translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation>未知的键</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <source>must be an integer from %1 to %2</source>
        <translation>必须是 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>must be a number or &quot;inf&quot;</source>
        <translation>必须是数字或 &quot;inf&quot;</translation>
    </message>
    <message>
        <source>ignored: it applies to the %1 dataset, and dataset_name is %2</source>
        <translation>已忽略：它只作用于 %1 数据集，而 dataset_name 是 %2</translation>
    </message>
    <message>
        <source>has %1 values but another list has %2</source>
        <translation>有 %1 个值，但另一个列表有 %2 个</translation>
    </message>
    <message>
        <source>contradicts %1</source>
        <translation>与 %1 矛盾</translation>
    </message>
    <message>
        <source>holds a literal bearer token; files may only name the key (api_key_env or keychain_entry)</source>
        <translation>含有明文 bearer token；文件中只能写明密钥的来源（api_key_env 或 keychain_entry）</translation>
    </message>
    <message>
        <source>a literal API key is not allowed; files may only name the key (api_key_env or keychain_entry)</source>
        <translation>不允许写入明文 API 密钥；文件中只能写明密钥的来源（api_key_env 或 keychain_entry）</translation>
    </message>
    <message>
        <source>must be greater than dataset.prefix_len (%1) for the shared_prefix dataset</source>
        <translation>对于 shared_prefix 数据集必须大于 dataset.prefix_len（%1）</translation>
    </message>
    <message>
        <source>is %1, but endpoint.path is the %2 API&apos;s path</source>
        <translation>为 %1，但 endpoint.path 是 %2 API 的路径</translation>
    </message>
    <message>
        <source>is not an API&apos;s path: the %1 API&apos;s is %2</source>
        <translation>不是任何 API 的路径：%1 API 的路径是 %2</translation>
    </message>
    <message>
        <source>is not an SLO: write p&lt;percentile&gt;_&lt;ttft|ttfo|tpot|itl|e2el&gt;_ms, e.g. p90_ttft_ms</source>
        <translation>不是 SLO：应写成 p&lt;百分位&gt;_&lt;ttft|ttfo|tpot|itl|e2el&gt;_ms，例如 p90_ttft_ms</translation>
    </message>
    <message>
        <source>is capacity, which needs load.capacity</source>
        <translation>为 capacity，需要 load.capacity</translation>
    </message>
    <message>
        <source>is only allowed with load.mode capacity</source>
        <translation>只能与 load.mode capacity 一起使用</translation>
    </message>
    <message>
        <source>needs at least one SLO, e.g. p90_ttft_ms</source>
        <translation>至少需要一个 SLO，例如 p90_ttft_ms</translation>
    </message>
    <message>
        <source>bounds %1 a second time</source>
        <translation>第二次为 %1 设定上限</translation>
    </message>
    <message>
        <source>needs a stop rule for each level: num_prompts, prompts_per_level and/or max_seconds</source>
        <translation>每个级别都需要停止规则：num_prompts、prompts_per_level 和/或 max_seconds</translation>
    </message>
    <message>
        <source>must be mooncake, azure or burstgpt (or left out)</source>
        <translation>必须是 mooncake、azure 或 burstgpt（或省略）</translation>
    </message>
    <message>
        <source>must be left out for the trace dataset: the trace sets each prompt&apos;s length</source>
        <translation>追踪数据集须省略此项：每个提示的长度由追踪决定</translation>
    </message>
    <message>
        <source>must be left out for the trace dataset: the trace&apos;s own gaps are replayed</source>
        <translation>追踪数据集须省略此项：回放追踪自身的间隔</translation>
    </message>
    <message>
        <source>is more than the trace&apos;s %1 requests</source>
        <translation>多于追踪的 %1 个请求</translation>
    </message>
    <message>
        <source>needs load.mode capacity: only its levels have SLOs</source>
        <translation>需要 load.mode 为 capacity：只有其档位带有 SLO</translation>
    </message>
    <message>
        <source>must be concurrency for the multi_turn dataset (concurrency counts sessions in flight)</source>
        <translation>对于 multi_turn 数据集必须为 concurrency（并发数统计进行中的会话数）</translation>
    </message>
    <message>
        <source>must name the chat completions API for the multi_turn dataset (its turns are chat messages)</source>
        <translation>对于 multi_turn 数据集必须指向 chat completions API（其每一轮都是对话消息）</translation>
    </message>
    <message>
        <source>plans point %1 to last %2 s (%3 prompts at %4 requests/s), longer than a day (86400 s): raise request_rate, or lower num_prompts or max_seconds</source>
        <translation>计划让负载点 %1 持续 %2 秒（%3 个提示，每秒 %4 个请求），超过一天（86400 秒）：请提高 request_rate，或降低 num_prompts 或 max_seconds</translation>
    </message>
    <message>
        <source>%1 concurrent streams need %2 file descriptors but the open-file hard limit is %3: no run can open them (lower it, or raise the hard limit, ulimit -Hn)</source>
        <translation>%1 个并发流需要 %2 个文件描述符，但打开文件数硬限制为 %3：任何运行都无法打开它们（请调低该值，或提高硬限制，ulimit -Hn）</translation>
    </message>
    <message>
        <source>%1 concurrent streams need as many local ports, and this host hands out %2 (net.ipv4.ip_local_port_range): a server behind one address refuses the rest</source>
        <translation>%1 个并发流需要同样多的本地端口，而本机只分配 %2 个（net.ipv4.ip_local_port_range）：单一地址后的服务器会拒绝其余连接</translation>
    </message>
</context>
<context>
    <name>ServeScope::ProfileDialog</name>
    <message>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Endpoint profiles</source>
        <translation>端点配置</translation>
    </message>
    <message>
        <source>paste a new key to store it in the keychain</source>
        <translation>粘贴新密钥以保存到密钥环</translation>
    </message>
    <message>
        <source>host:port (empty: none)</source>
        <translation>主机:端口（留空表示不使用）</translation>
    </message>
    <message>
        <source>or read the key from this environment variable</source>
        <translation>或从此环境变量读取密钥</translation>
    </message>
    <message>
        <source>OpenAI (strict)</source>
        <translation>OpenAI（严格）</translation>
    </message>
    <message>
        <source>Connection test results appear here.</source>
        <translation>连接测试结果将显示在这里。</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新建配置</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Dialect</source>
        <translation>接口风格</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>额外请求头</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Key variable</source>
        <translation>密钥变量</translation>
    </message>
    <message>
        <source>The local simulator needs no key: ServeScope starts it for each run.</source>
        <translation>本地模拟器不需要密钥：ServeScope 会为每次运行启动它。</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>未保存密钥。</translation>
    </message>
    <message>
        <source>A key is stored in the system keychain for this profile.</source>
        <translation>此配置的密钥已保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>New endpoint</source>
        <translation>新端点</translation>
    </message>
    <message>
        <source>Storing the key in the system keychain…</source>
        <translation>正在将密钥保存到系统密钥环…</translation>
    </message>
    <message>
        <source>The key is kept in memory for this session only.</source>
        <translation>密钥仅在本次会话中保存在内存里。</translation>
    </message>
    <message>
        <source>The key is stored in the system keychain.</source>
        <translation>密钥已保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Spaces or line breaks around the pasted key were removed.</source>
        <translation>已去除粘贴密钥前后的空格或换行。</translation>
    </message>
    <message>
        <source>The key could not be stored: %1</source>
        <translation>无法保存密钥：%1</translation>
    </message>
    <message>
        <source>Keychain not available</source>
        <translation>密钥环不可用</translation>
    </message>
    <message>
        <source>%1

ServeScope never writes keys to disk. Keep this key in memory for this session only? You will need to enter it again after restarting.</source>
        <translation>%1

ServeScope 从不把密钥写入磁盘。是否仅在本次会话中将此密钥保存在内存里？重新启动后需要再次输入。</translation>
    </message>
    <message>
        <source>The profile was saved without a key.</source>
        <translation>配置已保存，但未包含密钥。</translation>
    </message>
    <message>
        <source>The local simulator is started by ServeScope when a run begins, so there is nothing to test.</source>
        <translation>本地模拟器在运行开始时由 ServeScope 启动，因此无需测试。</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>正在读取密钥…</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>正在测试连接…</translation>
    </message>
    <message>
        <source>Unsaved profile</source>
        <translation>未保存的配置</translation>
    </message>
    <message>
        <source>The profile &quot;%1&quot; has changes that are not saved.</source>
        <translation>配置“%1”有尚未保存的修改。</translation>
    </message>
    <message>
        <source>Discard them? Save profile keeps them (and a typed key goes to the keychain).</source>
        <translation>要丢弃这些修改吗？点击“保存配置”可保留它们（输入的密钥会存入密钥环）。</translation>
    </message>
    <message>
        <source>The server refused the key typed in the key field (it is not saved yet). Check it, then save the profile to keep it in the keychain.</source>
        <translation>服务器拒绝了密钥输入框中的密钥（它尚未保存）。请检查后保存配置，密钥将存入密钥环。</translation>
    </message>
    <message>
        <source>Do not verify the server&apos;s certificate (said in every report)</source>
        <translation>不验证服务器证书（每份报告都会注明）</translation>
    </message>
    <message>
        <source>https: PEM file of the certificate authorities to trust (empty: the system&apos;s)</source>
        <translation>https：要信任的证书颁发机构的 PEM 文件（留空：使用系统的）</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>The API the requests speak: it sets the path, whose end names it.</source>
        <translation>请求所用的 API：它决定路径，路径的结尾即表示 API。</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>A new profile from Claude Code&apos;s settings.json, Codex&apos;s auth.json or config.toml, or a .env file: the base URL, API, model and key they hold</source>
        <translation>从 Claude Code 的 settings.json、Codex 的 auth.json 或 config.toml，或 .env 文件新建配置：读取其中的基础 URL、API、模型和密钥</translation>
    </message>
    <message>
        <source>Import endpoint</source>
        <translation>导入端点</translation>
    </message>
    <message>
        <source>Endpoint files (*.json *.toml *.env .env*);;All files (*)</source>
        <translation>端点文件 (*.json *.toml *.env .env*);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 未导入：%2</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1（来自 %2）</translation>
    </message>
    <message>
        <source>The key in the file is a placeholder: paste the real key below and save.</source>
        <translation>文件中的密钥是占位符：请在下方粘贴真实密钥并保存。</translation>
    </message>
    <message>
        <source>The key is read from the environment variable %1 when a run starts.</source>
        <translation>运行开始时从环境变量 %1 读取密钥。</translation>
    </message>
    <message>
        <source>Imported from %1.</source>
        <translation>已从 %1 导入。</translation>
    </message>
    <message>
        <source>A key is kept in memory for this profile, for this session only.</source>
        <translation>此配置的密钥仅保存在内存中，仅限本次会话。</translation>
    </message>
</context>
<context>
    <name>ServeScope::ProfileStore</name>
    <message>
        <source>Local simulator</source>
        <translation>本地模拟器</translation>
    </message>
</context>
<context>
    <name>ServeScope::ProjectController</name>
    <message>
        <source>%1 checked: no damage found</source>
        <translation>%1 已检查：未发现损坏</translation>
    </message>
    <message>
        <source>Integrity check failed: %1</source>
        <translation>完整性检查失败：%1</translation>
    </message>
    <message>
        <source>%1 is damaged</source>
        <translation>%1 已损坏</translation>
    </message>
    <message>
        <source>The project file is damaged</source>
        <translation>项目文件已损坏</translation>
    </message>
    <message>
        <source>%1

What can be read is shown, but results may be missing or wrong. Runs are refused into a damaged file: create a new project for new runs.</source>
        <translation>%1

能读取的内容已显示，但结果可能缺失或有误。损坏的文件不接受新的运行：请为新运行创建新项目。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save failed: %1</source>
        <translation>保存失败：%1</translation>
    </message>
    <message>
        <source>The project was not saved</source>
        <translation>项目未保存</translation>
    </message>
    <message>
        <source>Saving the experiment failed: %1</source>
        <translation>保存实验失败：%1</translation>
    </message>
    <message>
        <source>New experiment</source>
        <translation>新建实验</translation>
    </message>
    <message>
        <source>The demo experiment could not be read: %1</source>
        <translation>无法读取演示实验：%1</translation>
    </message>
    <message>
        <source>Demo loaded: press Run (Ctrl+R) to measure it against the local simulator.</source>
        <translation>演示已加载：按“运行”（Ctrl+R）即可针对本地模拟器进行测量。</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <source>ServeScope projects (*.servescope)</source>
        <translation>ServeScope 项目 (*.servescope)</translation>
    </message>
    <message>
        <source>A run is in progress: cancel it first.</source>
        <translation>有运行正在进行：请先取消。</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>This project has not been saved yet; its runs will be lost.</source>
        <translation>此项目尚未保存；其中的运行记录将会丢失。</translation>
    </message>
    <message>
        <source>The experiment has changes that are not saved.</source>
        <translation>实验有尚未保存的更改。</translation>
    </message>
    <message>
        <source>Save before leaving this project?</source>
        <translation>离开此项目前先保存吗？</translation>
    </message>
    <message>
        <source>demo: vLLM vs SGLang and max_num_seqs on the local simulator</source>
        <translation>演示：本地模拟器上的 vLLM 对比 SGLang 与 max_num_seqs</translation>
    </message>
    <message>
        <source>the same simulated GPU under SGLang: its flags (max_num_seqs becomes --max-running-requests), metric names and scheduler</source>
        <translation>同一块模拟 GPU 改用 SGLang：其参数（max_num_seqs 变为 --max-running-requests）、指标名称和调度器</translation>
    </message>
</context>
<context>
    <name>ServeScope::ProjectTree</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>#%1 %2 · %3 · %4 requests</source>
        <translation>#%1 %2 · %3 · %4 个请求</translation>
    </message>
    <message>
        <source>Untitled experiment</source>
        <translation>未命名实验</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Runs (%1)</source>
        <translation>运行（%1）</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>与之对比</translation>
    </message>
    <message>
        <source>Rerun to check</source>
        <translation>重跑核对</translation>
    </message>
    <message>
        <source>Run this run&apos;s configuration again and check that the two agree within 5%</source>
        <translation>用这次运行的配置再跑一次，并核对两者相差是否在 5% 以内</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>imported (%1)</source>
        <translation>已导入（%1）</translation>
    </message>
    <message>
        <source>Publish to team database…</source>
        <translation>发布到团队数据库…</translation>
    </message>
    <message>
        <source>Copy this run, with every request, into the team database of File → Team runs</source>
        <translation>将此运行连同每个请求复制到“文件 → 团队运行”所设的团队数据库</translation>
    </message>
</context>
<context>
    <name>ServeScope::ProjectWorker</name>
    <message>
        <source>Cannot replace %1.</source>
        <translation>无法替换 %1。</translation>
    </message>
    <message>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
</context>
<context>
    <name>ServeScope::Report</name>
    <message>
        <source>model %1</source>
        <translation>模型 %1</translation>
    </message>
    <message>
        <source>definitions: %1</source>
        <translation>指标定义：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) not positive or not finite: dropped (or band edge clamped) on the log axis.</source>
        <translation>
            <numerusform>%n 个值非正或非有限：在对数轴上已舍弃（或已截断区间边界）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (ms, log scale)</source>
        <translation>%1（毫秒，对数刻度）</translation>
    </message>
    <message>
        <source>%1 distribution (CDF)</source>
        <translation>%1 分布（CDF）</translation>
    </message>
    <message>
        <source>Share of requests at or below</source>
        <translation>不超过该值的请求占比</translation>
    </message>
    <message>
        <source>%1: %2 ms
%3% of %4 requests at or below</source>
        <translation>%1：%2 毫秒
%4 个请求中 %3% 不超过该值</translation>
    </message>
    <message>
        <source>%1 distribution (histogram)</source>
        <translation>%1 分布（直方图）</translation>
    </message>
    <message>
        <source>Share of requests per bin</source>
        <translation>每个区间的请求占比</translation>
    </message>
    <message>
        <source>%1 non-positive value(s) cannot be placed on the log axis and are not counted.</source>
        <translation>%1 个非正值无法放在对数轴上，未计入。</translation>
    </message>
    <message>
        <source>%1: %2–%3 ms
%4 requests (%5%)</source>
        <translation>%1：%2–%3 毫秒
%4 个请求（%5%）</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>Time to first content</source>
        <translation>首个内容时间</translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>ITL</translation>
    </message>
    <message>
        <source>Content ITL</source>
        <translation>内容 ITL</translation>
    </message>
    <message>
        <source>E2EL</source>
        <translation>E2EL</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Total tokens/s</source>
        <translation>总 token/秒</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>%1 vs load</source>
        <translation>%1 与负载</translation>
    </message>
    <message>
        <source>output %1 tok/s</source>
        <translation>输出 %1 token/秒</translation>
    </message>
    <message>
        <source>requests %1 req/s</source>
        <translation>请求 %1 请求/秒</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1（毫秒）</translation>
    </message>
    <message>
        <source>%1 p50 %2 ms</source>
        <translation>%1 p50 %2 毫秒</translation>
    </message>
    <message>
        <source>p25–p75 %1–%2 ms</source>
        <translation>p25–p75 %1–%2 毫秒</translation>
    </message>
    <message>
        <source>p10–p90 %1–%2 ms</source>
        <translation>p10–p90 %1–%2 毫秒</translation>
    </message>
    <message>
        <source>p1–p99 %1–%2 ms</source>
        <translation>p1–p99 %1–%2 毫秒</translation>
    </message>
    <message>
        <source>%1 vs output throughput</source>
        <translation>%1 与输出吞吐</translation>
    </message>
    <message>
        <source>p50 solid, p90 dashed, in load order; median across repeats</source>
        <translation>p50 实线，p90 虚线，按负载顺序；取各次重复的中位数</translation>
    </message>
    <message>
        <source>%1 p50 %2 ms, p90 %3 ms</source>
        <translation>%1 p50 %2 毫秒，p90 %3 毫秒</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>负载点</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>ServeScope report</source>
        <translation>ServeScope 报告</translation>
    </message>
    <message>
        <source>TTFT p50 (ms)</source>
        <translation>TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>TPOT p50 (ms)</source>
        <translation>TPOT p50（毫秒）</translation>
    </message>
    <message>
        <source>Output (tok/s)</source>
        <translation>输出（token/秒）</translation>
    </message>
    <message>
        <source>better</source>
        <translation>更好</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>更差</translation>
    </message>
    <message>
        <source>Generated %1 by ServeScope %2. Rates and latencies per point are medians across repeats, request counts are totals; rows marked * have more than 0.5% failed requests (censored: latencies describe only the survivors).</source>
        <translation>由 ServeScope %2 于 %1 生成。每个负载点的速率和延迟取各次重复的中位数，请求数为总和；标 * 的行失败请求超过 0.5%（截尾：延迟只反映成功的请求）。</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model answered by the server</source>
        <translation>服务器返回的模型</translation>
    </message>
    <message>
        <source>Started (UTC)</source>
        <translation>开始时间（UTC）</translation>
    </message>
    <message>
        <source>Finished (UTC)</source>
        <translation>结束时间（UTC）</translation>
    </message>
    <message>
        <source>Definitions profile</source>
        <translation>指标定义</translation>
    </message>
    <message>
        <source>Environment snapshot</source>
        <translation>环境快照</translation>
    </message>
    <message>
        <source>Client host</source>
        <translation>客户端主机</translation>
    </message>
    <message>
        <source>Changes: %1</source>
        <translation>变化：%1</translation>
    </message>
    <message>
        <source>%1 in flight</source>
        <translation>%1 个进行中</translation>
    </message>
    <message>
        <source>Run over time</source>
        <translation>运行时间序列</translation>
    </message>
    <message>
        <source>Time since first request (s)</source>
        <translation>自第一个请求起的时间（秒）</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>completions/s</source>
        <translation>完成数/秒</translation>
    </message>
    <message>
        <source>%1 completions/s</source>
        <translation>%1 完成数/秒</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>%1 output tokens/s</source>
        <translation>%1 输出 token/秒</translation>
    </message>
    <message>
        <source>%1–%2 s: %3 output tokens/s</source>
        <translation>%1–%2 秒：%3 输出 token/秒</translation>
    </message>
    <message>
        <source>Tokens per event estimated: usage totals spread evenly over each request&apos;s token events.</source>
        <translation>每个事件的 token 数为估计值：用量总数平均分摊到每个请求的 token 事件上。</translation>
    </message>
    <message>
        <source>Unknown chart format for %1: use .png, .svg or .pdf.</source>
        <translation>%1 的图表格式未知：请使用 .png、.svg 或 .pdf。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Request rate (req/s)</source>
        <translation>请求速率（请求/秒）</translation>
    </message>
    <message>
        <source>Concurrency (requests in flight)</source>
        <translation>并发数（进行中的请求）</translation>
    </message>
    <message>
        <source>rate inf</source>
        <translation>速率 inf</translation>
    </message>
    <message>
        <source>rate %1/s</source>
        <translation>速率 %1/秒</translation>
    </message>
    <message>
        <source>, cap %1</source>
        <translation>，上限 %1</translation>
    </message>
    <message>
        <source>concurrency %1</source>
        <translation>并发 %1</translation>
    </message>
    <message>
        <source> (in %1 / out %2)</source>
        <translation>（输入 %1 / 输出 %2）</translation>
    </message>
    <message>
        <source> cap %1</source>
        <translation> 上限 %1</translation>
    </message>
    <message>
        <source>%1 concurrency point(s) not shown on the request-rate axis.</source>
        <translation>%1 个并发负载点未显示在请求速率轴上。</translation>
    </message>
    <message>
        <source>%1 request-rate point(s) not shown on the concurrency axis.</source>
        <translation>%1 个请求速率负载点未显示在并发轴上。</translation>
    </message>
    <message>
        <source>%1 point(s) with an infinite or zero load value not shown.</source>
        <translation>%1 个负载值为无穷或零的负载点未显示。</translation>
    </message>
    <message>
        <source>success %1%</source>
        <translation>成功率 %1%</translation>
    </message>
    <message>
        <source> (%1 failed)</source>
        <translation>（%1 个失败）</translation>
    </message>
    <message>
        <source>partial: %1/%2 requests, the rest cancelled</source>
        <translation>不完整：%1/%2 个请求，其余已取消</translation>
    </message>
    <message>
        <source>median of %1 repeats</source>
        <translation>%1 次重复的中位数</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Unknown report format for %1: use .html or .pdf.</source>
        <translation>%1 的报告格式未知：请使用 .html 或 .pdf。</translation>
    </message>
    <message>
        <source>Input/output (tokens)</source>
        <translation>输入/输出（token）</translation>
    </message>
    <message>
        <source>TTFT p99 (ms)</source>
        <translation>TTFT p99（毫秒）</translation>
    </message>
    <message>
        <source>TPOT p99 (ms)</source>
        <translation>TPOT p99（毫秒）</translation>
    </message>
    <message>
        <source>ITL p50 (ms)</source>
        <translation>ITL p50（毫秒）</translation>
    </message>
    <message>
        <source>ITL p99 (ms)</source>
        <translation>ITL p99（毫秒）</translation>
    </message>
    <message>
        <source>E2EL p50 (ms)</source>
        <translation>E2EL p50（毫秒）</translation>
    </message>
    <message>
        <source>E2EL p99 (ms)</source>
        <translation>E2EL p99（毫秒）</translation>
    </message>
    <message>
        <source>Variants (what each changes from the baseline)</source>
        <translation>变体（各自相对基线的改动）</translation>
    </message>
    <message>
        <source>the baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>无改动</translation>
    </message>
    <message>
        <source>median across repeats (shaded: their min–max); hollow markers: points with failed or cancelled requests</source>
        <translation>取各次重复的中位数（阴影：其最小–最大值）；空心标记：含失败或取消请求的负载点</translation>
    </message>
    <message>
        <source>repeats %1–%2</source>
        <translation>各次重复 %1–%2</translation>
    </message>
    <message>
        <source>Queueing</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>Memory-bandwidth-bound decode</source>
        <translation>解码受显存带宽限制</translation>
    </message>
    <message>
        <source>KV-cache pressure</source>
        <translation>KV 缓存压力</translation>
    </message>
    <message>
        <source>Capacity knee</source>
        <translation>容量拐点</translation>
    </message>
    <message>
        <source>Healthy, decode-bound</source>
        <translation>健康（解码受限的正常状态）</translation>
    </message>
    <message>
        <source>Censored points</source>
        <translation>截尾负载点</translation>
    </message>
    <message>
        <source>Not reproducible</source>
        <translation>不可复现</translation>
    </message>
    <message>
        <source>Prefix cache contaminates the workload</source>
        <translation>前缀缓存污染了工作负载</translation>
    </message>
    <message>
        <source>Estimated output counts</source>
        <translation>输出 token 数为估计值</translation>
    </message>
    <message>
        <source>Unreliable p99</source>
        <translation>p99 不可靠</translation>
    </message>
    <message>
        <source>From %1, TTFT p50 grows ×%2 while TPOT p50 grows ×%3: requests wait before the scheduler takes them; the GPU is not the limit.</source>
        <translation>从 %1 起，TTFT p50 增长 ×%2，而 TPOT p50 仅增长 ×%3：请求在被调度器接收前处于等待，瓶颈不在 GPU。</translation>
    </message>
    <message>
        <source>Confirmed: up to %1 requests waited in the server&apos;s queue (at most %2 running).</source>
        <translation>已确认：服务器队列中最多有 %1 个请求在等待（最多 %2 个在运行）。</translation>
    </message>
    <message>
        <source>To confirm: the server&apos;s waiting queue (/metrics) or max-running-requests saturated in its log.</source>
        <translation>如需确认：查看服务器的等待队列（/metrics），或其日志中 max-running-requests 是否已饱和。</translation>
    </message>
    <message>
        <source>From %1, TPOT p50 grows ×%2 while output throughput falls %3% below its peak: decode looks limited by memory bandwidth.</source>
        <translation>从 %1 起，TPOT p50 增长 ×%2，而输出吞吐比峰值低 %3%：解码看起来受显存带宽限制。</translation>
    </message>
    <message>
        <source>Confirmed: DRAM active up to %1%.</source>
        <translation>已确认：DRAM 活跃度最高 %1%。</translation>
    </message>
    <message>
        <source>Not confirmed: DRAM active stayed at %1%.</source>
        <translation>未确认：DRAM 活跃度保持在 %1%。</translation>
    </message>
    <message>
        <source>To confirm: the GPU&apos;s DRAM activity (a DCGM exporter).</source>
        <translation>如需确认：查看 GPU 的 DRAM 活跃度（DCGM exporter）。</translation>
    </message>
    <message>
        <source>%1 preemptions at %2 with the KV cache up to %3% full: requests are evicted and recomputed. Give the cache more memory or admit fewer sequences.</source>
        <translation>%2 处发生 %1 次抢占，KV 缓存占用最高 %3%：请求被逐出后重新计算。请为缓存分配更多显存，或减少同时接纳的序列数。</translation>
    </message>
    <message>
        <source>The knee is at %1 (%2 tok/s): past it a doubling of load adds %3% throughput while TTFT p99 keeps rising.</source>
        <translation>拐点位于 %1（%2 token/秒）：超过它后负载每翻一倍，吞吐只增加 %3%，而 TTFT p99 持续上升。</translation>
    </message>
    <message>
        <source>Along %1 output throughput grows ×%2 with the load, with no sign of queueing, bandwidth limits or cache pressure.</source>
        <translation>在 %1 上，输出吞吐随负载增长 ×%2，没有排队、带宽限制或缓存压力的迹象。</translation>
    </message>
    <message>
        <source>At %1 up to %2% of requests failed: latencies describe only the survivors.</source>
        <translation>%1 处最多有 %2% 的请求失败：延迟只反映成功的请求。</translation>
    </message>
    <message>
        <source>At %1 a headline metric spreads up to %2% across repeats (more than 5%): rerun or add repeats before concluding.</source>
        <translation>%1 处某项主要指标在各次重复间的离散度最高达 %2%（超过 5%）：请重新运行或增加重复次数后再下结论。</translation>
    </message>
    <message>
        <source>Prefix-cache hits up to %1% at %2 on prompts meant to share nothing: the results flatter the server. Reset the prefix cache before each point.</source>
        <translation>%2 处前缀缓存命中率最高达 %1%，而这些提示本不应共享任何内容：结果偏向乐观。请在每个负载点之前重置前缀缓存。</translation>
    </message>
    <message>
        <source>p99 needs 1,000 requests; %1 had fewer (the fewest %2): read p90 or the median there.</source>
        <translation>p99 需要 1,000 个请求；%1 的请求数不足（最少 %2 个）：这些负载点请看 p90 或中位数。</translation>
    </message>
    <message>
        <source>p50 across repeats %1–%2 ms</source>
        <translation>各次重复的 p50 为 %1–%2 毫秒</translation>
    </message>
    <message>
        <source>output tokens estimated for %1 of %2 requests (no usage, no /tokenize)</source>
        <translation>%2 个请求中有 %1 个的输出 token 数为估计值（无用量信息，无 /tokenize）</translation>
    </message>
    <message>
        <source>Server running (mean)</source>
        <translation>服务器运行中（均值）</translation>
    </message>
    <message>
        <source>Server waiting (max)</source>
        <translation>服务器等待中（最大）</translation>
    </message>
    <message>
        <source>KV cache (max %)</source>
        <translation>KV 缓存（最大 %）</translation>
    </message>
    <message>
        <source>GPU util (%)</source>
        <translation>GPU 利用率（%）</translation>
    </message>
    <message>
        <source>Repeats agree within 5%</source>
        <translation>各次重复相差在 5% 以内</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <source>one repeat</source>
        <translation>仅一次重复</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no: %1</source>
        <translation>否：%1</translation>
    </message>
    <message>
        <source>Steady window per point</source>
        <translation>各负载点的稳态窗口</translation>
    </message>
    <message>
        <source>Requests that started while every slot was busy, throughput from the tokens inside the window; medians across repeats. Beside vLLM&apos;s set, not instead of it.</source>
        <translation>在所有槽位都忙时开始的请求，吞吐按窗口内的 token 计算；取各次重复的中位数。它与 vLLM 的结果集并列，而非取代。</translation>
    </message>
    <message>
        <source>Window (s)</source>
        <translation>窗口（秒）</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>The client limited the measurement</source>
        <translation>客户端限制了测量</translation>
    </message>
    <message>
        <source>At %1 requests were sent up to %2 ms late (p99) with the client at %3% CPU: the numbers there describe this machine as much as the server. Use fewer streams per client host, or shard the load.</source>
        <translation>%1 处请求最多晚发送 %2 毫秒（p99），客户端 CPU 占用 %3%：这些数字既反映服务器，也反映本机。请减少每台客户端主机的流数，或将负载分片。</translation>
    </message>
    <message>
        <source>Estimated input counts</source>
        <translation>输入计数为估计值</translation>
    </message>
    <message>
        <source>At %1 up to %2% of requests had no usage and the server no /tokenize: their input tokens are estimates (calibrated with max_tokens 1 probes when the server reports usage for them, else the target length), and so is total-token throughput.</source>
        <translation>在 %1，最多 %2% 的请求没有 usage 且服务器没有 /tokenize：其输入 token 数为估计值（服务器对 max_tokens 为 1 的探测返回 usage 时据此校准，否则取目标长度），总 token 吞吐也是估计值。</translation>
    </message>
    <message>
        <source>%1 (steady window)</source>
        <translation>%1（稳态窗口）</translation>
    </message>
    <message numerus="yes">
        <source>%n point repeat(s) without a steady window (never all slots busy) left out</source>
        <translation>
            <numerusform>%n 个负载点重复没有稳态窗口（槽位从未全部占满），已略去</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: capacity knee at %2</source>
        <translation>%1：容量拐点在 %2</translation>
    </message>
    <message>
        <source>p50 line; shaded p25–p75, p10–p90 and p1–p99; median across repeats (bar: their p50 min–max)</source>
        <translation>p50 线；阴影为 p25–p75、p10–p90 和 p1–p99；取各次重复的中位数（竖线：各次重复 p50 的最小–最大）</translation>
    </message>
    <message>
        <source>p50 line; shaded p25–p75 and p10–p90; median across repeats (bar: their p50 min–max)</source>
        <translation>p50 线；阴影为 p25–p75 和 p10–p90；取各次重复的中位数（竖线：各次重复 p50 的最小–最大）</translation>
    </message>
    <message>
        <source>input tokens estimated for %1 of %2 requests (no usage, no /tokenize)</source>
        <translation>%2 个请求中有 %1 个的输入 token 数为估计值（无 usage，无 /tokenize）</translation>
    </message>
    <message>
        <source>output tokens counted as SGLang does (the requested max_tokens): %1; the server counted %2 (%3%)</source>
        <translation>按 SGLang 的方式计数的输出 token（请求的 max_tokens）：%1；服务器计数为 %2（%3%）</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>%1 at %2 s: %3</source>
        <translation>%1 于 %2 秒：%3</translation>
    </message>
    <message>
        <source>in flight, completions/s and the server&apos;s running and waiting requests (left, dashed); output tokens/s (right, shaded)</source>
        <translation>在途请求、每秒完成数以及服务器运行中和等待中的请求（左轴，虚线）；每秒输出 token（右轴，阴影）</translation>
    </message>
    <message>
        <source>server running</source>
        <translation>服务器运行中</translation>
    </message>
    <message>
        <source>server waiting</source>
        <translation>服务器等待中</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) unknown (not in the results): not drawn.</source>
        <translation>
            <numerusform>%n 个值未知（结果中没有）：未绘制。</numerusform>
        </translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>the server&apos;s certificate was NOT verified (tls_skip_verify)</source>
        <translation>未验证服务器证书（tls_skip_verify）</translation>
    </message>
    <message>
        <source>certificate verified against the system&apos;s certificate authorities</source>
        <translation>已用系统的证书颁发机构验证证书</translation>
    </message>
    <message>
        <source>certificate verified against %1</source>
        <translation>已用 %1 验证证书</translation>
    </message>
    <message>
        <source>Prefill interference</source>
        <translation>预填充干扰</translation>
    </message>
    <message>
        <source>Rate-limited (HTTP 429)</source>
        <translation>被限流（HTTP 429）</translation>
    </message>
    <message>
        <source>Role chunk before the first token</source>
        <translation>角色块先于首个 token</translation>
    </message>
    <message>
        <source>ignore_eos not honoured</source>
        <translation>ignore_eos 未被遵守</translation>
    </message>
    <message>
        <source>To confirm: rerun with a smaller max_num_batched_tokens than this variant&apos;s %1 (vLLM&apos;s chunked-prefill budget per step); ITL p99 should fall while TTFT rises.</source>
        <translation>验证方法：用比该变体的 %1 更小的 max_num_batched_tokens（vLLM 每步的分块预填充预算）重跑；ITL P99 应下降而 TTFT 上升。</translation>
    </message>
    <message>
        <source>To confirm: rerun with a smaller chunked_prefill_size than this variant&apos;s %1 (SGLang&apos;s chunked-prefill budget); ITL p99 should fall while TTFT rises.</source>
        <translation>验证方法：用比该变体的 %1 更小的 chunked_prefill_size（SGLang 的分块预填充预算）重跑；ITL P99 应下降而 TTFT 上升。</translation>
    </message>
    <message>
        <source>To confirm: rerun with a smaller chunked-prefill budget (vLLM --max-num-batched-tokens, SGLang --chunked-prefill-size); ITL p99 should fall while TTFT rises.</source>
        <translation>验证方法：用更小的分块预填充预算（vLLM --max-num-batched-tokens，SGLang --chunked-prefill-size）重跑；ITL P99 应下降而 TTFT 上升。</translation>
    </message>
    <message>
        <source>At %1 the server answered %2 requests with HTTP 429 (up to %3% of a point&apos;s requests): it refused load, and the latencies there leave those requests out.</source>
        <translation>在 %1，服务器对 %2 个请求返回了 HTTP 429（最多占一个负载点请求的 %3%）：它拒绝了负载，这些负载点的延迟不含这些请求。</translation>
    </message>
    <message>
        <source>At %1 the role-only first chunk arrives up to %2 ms (median) before the first content: TTFT under vLLM&apos;s definitions is then early, and the prefill time shows up in ITL. Read time to first content there.</source>
        <translation>在 %1，只含角色的首个块比首个内容最多早到 %2 毫秒（中位数）：按 vLLM 定义的 TTFT 因此偏早，预填充时间会出现在 ITL 中。请看这些负载点的首个内容时间。</translation>
    </message>
    <message>
        <source>At %1 up to %2% of requests stopped before the requested length although ignore_eos was sent: the endpoint drops or ignores it, so TPOT and throughput are not comparable across servers.</source>
        <translation>在 %1，尽管发送了 ignore_eos，最多 %2% 的请求在达到请求长度前停止：端点丢弃或忽略了它，因此 TPOT 和吞吐无法跨服务器比较。</translation>
    </message>
    <message>
        <source>The launched server had no /metrics: its server columns come from its scheduler log lines (vLLM&apos;s engine line, SGLang&apos;s batch lines).</source>
        <translation>启动的服务器没有 /metrics：其服务器列来自调度器日志行（vLLM 的引擎行，SGLang 的批次行）。</translation>
    </message>
    <message>
        <source>From %1, ITL p99 is ×%2 its p50 (%3 ms against %4 ms; ×%5 at the lightest load): prefills of joining prompts (%6 tokens on average) look like they stall the decode steps of running requests.</source>
        <translation>从 %1 起，ITL P99 是其 p50 的 ×%2（%3 毫秒对 %4 毫秒；最轻负载时为 ×%5）：新加入提示（平均 %6 个 token）的预填充似乎阻塞了正在运行请求的解码步。</translation>
    </message>
    <message>
        <source>Thresholds: queueing when TTFT p50 grows ×%1 or more, faster than the load, while TPOT p50 grows less than ×%2; bandwidth-bound when TPOT p50 grows ×%3 while throughput falls; KV pressure at %4% usage with preemptions; the knee where a doubling adds less than %5%; cache contamination above %6% hits; censored above %7% failed; p99 reliable from %8 requests; the client limited a point whose requests left more than %9 ms late (p99) or whose process used %10% of the host&apos;s cores; prefill interference when ITL p99 reaches ×%11 its p50 and ×%12 its ratio at the lightest load with joining prefill chunks of %16 tokens or more; rate-limited above %13% of requests answered 429; the role chunk ahead when it leads the first content by more than %14 ms (median); ignore_eos not honoured above %15% shorter outputs. Findings are hypotheses along curves where only the load changes.</source>
        <translation>阈值：TTFT p50 增长 ×%1 或以上且快于负载、而 TPOT p50 增长不到 ×%2 时为排队；TPOT p50 增长 ×%3 且吞吐下降时为带宽受限；KV 使用率达 %4% 且有抢占时为 KV 压力；负载翻倍带来的提升不足 %5% 处为拐点；命中率高于 %6% 为缓存污染；失败超过 %7% 为删失；P99 从 %8 个请求起可靠；请求发出延迟超过 %9 毫秒（P99）或进程占用主机 %10% 的核心时，客户端限制了该负载点；ITL P99 达到其 p50 的 ×%11、为最轻负载时比值的 ×%12，且新加入的预填充块有 %16 个 token 或更多时为预填充干扰；超过 %13% 的请求返回 429 为被限流；角色块比首个内容早到超过 %14 毫秒（中位数）时为角色块在前；短于请求长度的输出超过 %15% 时为 ignore_eos 未被遵守。发现均为沿仅负载变化的曲线所作的假设。</translation>
    </message>
    <message>
        <source>Total tok/s</source>
        <translation>总 token/秒</translation>
    </message>
    <message>
        <source>Output tok/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>%1 (served: %2)</source>
        <translation>%1（服务端报告：%2）</translation>
    </message>
    <message>
        <source> (simulator at %1x speed: times are scaled)</source>
        <translation>（模拟器以 %1 倍速运行：时间已缩放）</translation>
    </message>
    <message>
        <source> (TLS certificate not verified)</source>
        <translation>（未验证 TLS 证书）</translation>
    </message>
    <message>
        <source>burst: all %1 requests at once</source>
        <translation>突发：%1 个请求同时发出</translation>
    </message>
    <message>
        <source> burst</source>
        <translation> 突发</translation>
    </message>
    <message>
        <source>Buffered stream: TPOT and ITL invalid</source>
        <translation>流被缓冲：TPOT 与 ITL 无效</translation>
    </message>
    <message>
        <source>At %1 the stream arrived in blocks: %2 token events per socket read, %3% of the gaps between them zero, TTFT %4% of the end-to-end latency (median). Something between the client and the server (a gateway, proxy or load balancer) buffers the stream, so TPOT and ITL there describe its buffer, not the server, and TTFT is late. Turn buffering off for this route (nginx: proxy_buffering off) or measure the server directly.</source>
        <translation>在 %1，流是成块到达的：每次套接字读取 %2 个 token 事件，事件间隔中 %3% 为零，TTFT 占端到端延迟的 %4%（中位数）。客户端与服务器之间的某个环节（网关、代理或负载均衡器）缓冲了流，因此那里的 TPOT 和 ITL 描述的是该缓冲区而不是服务器，TTFT 也偏晚。请为此路由关闭缓冲（nginx：proxy_buffering off），或直接测量服务器。</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束方式</translation>
    </message>
    <message>
        <source>%1 before its end: only the points it completed are reported</source>
        <translation>在结束前%1：报告只包含它完成的负载点</translation>
    </message>
    <message>
        <source>interrupted (its process stopped)</source>
        <translation>被中断（其进程已停止）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>被取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Per-point results (medians across repeats, min–max)</source>
        <translation>各负载点结果（各次重复的中位数，最小–最大）</translation>
    </message>
    <message numerus="yes">
        <source>interrupted (its process stopped) before its end: the point it was running is summarised from the %n request(s) it stored, marked partial</source>
        <translation>
            <numerusform>已中断（其进程已停止），未到结束：正在运行的负载点按其保存的 %n 个请求汇总，标为不完整</numerusform>
        </translation>
    </message>
    <message>
        <source>TTFO</source>
        <translation>TTFO</translation>
    </message>
    <message>
        <source>TTFO p50 (ms)</source>
        <translation>TTFO p50（毫秒）</translation>
    </message>
    <message>
        <source>TTFO p99 (ms)</source>
        <translation>TTFO p99（毫秒）</translation>
    </message>
    <message>
        <source>Reasoning (% of output)</source>
        <translation>推理（占输出 %）</translation>
    </message>
    <message>
        <source>Reasoning per point</source>
        <translation>每个负载点的推理</translation>
    </message>
    <message>
        <source>TTFO p90 (ms)</source>
        <translation>TTFO p90（毫秒）</translation>
    </message>
    <message>
        <source>TTFO: time to the first output token, the answer&apos;s first after the reasoning (TTFT counts the reasoning&apos;s first); answer TPOT: time per output token after it (TPOT counts the reasoning&apos;s too); medians across repeats.</source>
        <translation>TTFO：首个输出 token 的时间，即推理之后回答的第一个 token（TTFT 计入推理的第一个 token）；回答 TPOT：其后每个输出 token 的时间（TPOT 也计入推理的 token）；取各次重复的中位数。</translation>
    </message>
    <message>
        <source>Answer TPOT p50 (ms)</source>
        <translation>回答 TPOT p50（毫秒）</translation>
    </message>
    <message>
        <source>Answer TPOT</source>
        <translation>回答 TPOT</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Comparable</source>
        <translation>可比性</translation>
    </message>
    <message>
        <source>when the clock starts or stops</source>
        <translation>计时的起点或终点</translation>
    </message>
    <message>
        <source>how values are weighted</source>
        <translation>取值的加权方式</translation>
    </message>
    <message>
        <source>where token counts come from</source>
        <translation>token 数的来源</translation>
    </message>
    <message>
        <source>differs in %1</source>
        <translation>不同之处：%1</translation>
    </message>
    <message>
        <source>Why the numbers differ: %1</source>
        <translation>数字为何不同：%1</translation>
    </message>
    <message>
        <source>A and B define some metrics differently (another tool&apos;s figures, or the other definitions profile). Only metrics comparable as published have a verdict above.</source>
        <translation>A 与 B 对部分指标的定义不同（来自其他工具的数字，或另一种定义配置）。上方只有按原样可比的指标给出了结论。</translation>
    </message>
    <message>
        <source>no verdict: defined differently (comparable after recompute)</source>
        <translation>无结论：定义不同（重新计算后可比）</translation>
    </message>
    <message>
        <source>no verdict: not comparable</source>
        <translation>无结论：不可比</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Output tok/s per GPU</source>
        <translation>每 GPU 输出 token/秒</translation>
    </message>
    <message>
        <source>Output tok/s per user</source>
        <translation>每用户输出 token/秒</translation>
    </message>
    <message>
        <source>Price per million output tokens</source>
        <translation>每百万输出 token 的价格</translation>
    </message>
    <message>
        <source>Throughput per GPU and cost</source>
        <translation>每 GPU 吞吐量与成本</translation>
    </message>
    <message>
        <source>Per user: 1000 / TPOT p50. Price: the GPU-hour price × GPUs over the output tokens of an hour. GPUs per variant: %1.</source>
        <translation>每用户：1000 / TPOT p50。价格：GPU 每小时价格 × GPU 数，除以一小时的输出 token 数。各变体的 GPU 数：%1。</translation>
    </message>
    <message>
        <source>one assumed (the run names none)</source>
        <translation>假定为 1（该运行未给出）</translation>
    </message>
    <message>
        <source>Output throughput per GPU vs per user</source>
        <translation>每 GPU 输出吞吐量与每用户速度</translation>
    </message>
    <message>
        <source>each curve in load order; dashed: the Pareto frontier across them; median across repeats</source>
        <translation>每条曲线按负载顺序；虚线：各曲线的帕累托前沿；取各次重复的中位数</translation>
    </message>
    <message>
        <source>Output tok/s per user (1000 / TPOT p50)</source>
        <translation>每用户输出 token/秒（1000 / TPOT p50）</translation>
    </message>
    <message>
        <source>%1 tok/s per GPU (%2 GPUs)</source>
        <translation>每 GPU %1 token/秒（%2 个 GPU）</translation>
    </message>
    <message>
        <source>%1 tok/s per user</source>
        <translation>每用户 %1 token/秒</translation>
    </message>
    <message>
        <source>%1 per million output tokens</source>
        <translation>每百万输出 token %1</translation>
    </message>
    <message>
        <source>Pareto frontier</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>%1: %2 tok/s per user is outside its measured range</source>
        <translation>%1：每用户 %2 token/秒超出其测量范围</translation>
    </message>
    <message>
        <source>%1: %2 tok/s per GPU at %3 tok/s per user</source>
        <translation>%1：在每用户 %3 token/秒处为每 GPU %2 token/秒</translation>
    </message>
    <message>
        <source>; ringed: each curve at %1 tok/s per user</source>
        <translation>；圆圈：各曲线在每用户 %1 token/秒处的值</translation>
    </message>
    <message>
        <source>GPU count not known, one assumed: %1 (set server.gpus)</source>
        <translation>GPU 数未知，假定为 1：%1（请设置 server.gpus）</translation>
    </message>
    <message>
        <source>bracket within the resolution</source>
        <translation>区间已在分辨率之内</translation>
    </message>
    <message>
        <source>the largest level allowed meets the SLOs: capacity is at least this</source>
        <translation>允许的最大级别仍满足 SLO：容量至少为此值</translation>
    </message>
    <message>
        <source>the smallest level tried misses the SLOs</source>
        <translation>尝试的最小级别也不满足 SLO</translation>
    </message>
    <message>
        <source>stopped at the cap on levels</source>
        <translation>达到级别数上限而停止</translation>
    </message>
    <message>
        <source>stopped at the time cap</source>
        <translation>达到时间上限而停止</translation>
    </message>
    <message>
        <source>the run was cancelled</source>
        <translation>运行已取消</translation>
    </message>
    <message>
        <source>%1% of requests meeting all of them</source>
        <translation>%1% 的请求同时满足它们</translation>
    </message>
    <message>
        <source>Capacity (requests/s)</source>
        <translation>容量（请求/秒）</translation>
    </message>
    <message>
        <source>Capacity (concurrency)</source>
        <translation>容量（并发数）</translation>
    </message>
    <message>
        <source>Next level, failing</source>
        <translation>下一级（不满足）</translation>
    </message>
    <message>
        <source>Search ended</source>
        <translation>搜索结束原因</translation>
    </message>
    <message>
        <source>Levels measured</source>
        <translation>测量的级别数</translation>
    </message>
    <message>
        <source>Output tok/s there</source>
        <translation>该处输出 token/秒</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>Price per million output tokens there</source>
        <translation>该处每百万输出 token 价格</translation>
    </message>
    <message>
        <source>Capacity under the SLOs</source>
        <translation>SLO 下的容量</translation>
    </message>
    <message>
        <source>The largest level measured that meets %1, found by bracketing and refining to %2%; the next level above it misses them. Every level is a point of the tables above.</source>
        <translation>满足 %1 的最大已测级别，通过确定区间并细化到 %2% 得出；其上的下一级别不满足。每个级别都是上方表格中的一个负载点。</translation>
    </message>
    <message>
        <source>No level the search tried meets the SLOs; the smallest was %1.</source>
        <translation>搜索尝试的级别都不满足 SLO；最小的级别为 %1。</translation>
    </message>
    <message>
        <source>Every level up to %1 req/s meets the SLOs: the capacity is at least that.</source>
        <translation>直到 %1 请求/秒的每个级别都满足 SLO：容量至少为此值。</translation>
    </message>
    <message>
        <source>Every level up to concurrency %1 meets the SLOs: the capacity is at least that.</source>
        <translation>直到并发数 %1 的每个级别都满足 SLO：容量至少为此值。</translation>
    </message>
    <message>
        <source>The largest request rate that meets the SLOs is %1 req/s; %2 misses them.</source>
        <translation>满足 SLO 的最大请求速率为 %1 请求/秒；%2 不满足。</translation>
    </message>
    <message>
        <source>The largest concurrency that meets the SLOs is %1; %2 misses them.</source>
        <translation>满足 SLO 的最大并发数为 %1；%2 不满足。</translation>
    </message>
    <message numerus="yes">
        <source>%n level(s) measured.</source>
        <translation>
            <numerusform>共测量 %n 个级别。</numerusform>
        </translation>
    </message>
    <message>
        <source>Points stopped once settled</source>
        <translation>负载点达到稳定后提前停止</translation>
    </message>
    <message>
        <source>At %1 the point stopped sending once its TTFT, TPOT and E2EL medians were known within %2% (95% interval), as the experiment asks (load.stop_when_settled): it measured fewer requests than planned.</source>
        <translation>在 %1，负载点的 TTFT、TPOT 和 E2EL 中位数精度达到 %2%（95% 区间）后即按实验要求（load.stop_when_settled）停止发送：实际测量的请求少于计划。</translation>
    </message>
    <message>
        <source>At %1 the capacity search&apos;s level stopped sending once its SLO verdict was decided (95% intervals), as the experiment asks (load.stop_when_settled): it measured fewer requests than planned.</source>
        <translation>在 %1，容量搜索的档位在其 SLO 判定（95% 区间）确定后即按实验要求（load.stop_when_settled）停止发送：实际测量的请求少于计划。</translation>
    </message>
    <message>
        <source>At %1 points stopped sending once their medians were known within %2% (95% interval) or their SLO verdict was decided, as the experiment asks (load.stop_when_settled): they measured fewer requests than planned.</source>
        <translation>在 %1，负载点在中位数精度达到 %2%（95% 区间）或 SLO 判定确定后即按实验要求（load.stop_when_settled）停止发送：实际测量的请求少于计划。</translation>
    </message>
    <message numerus="yes">
        <source>%n level(s) reused from an earlier run.</source>
        <translation>
            <numerusform>%n 个级别复用自早先的运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 + %2 reused</source>
        <translation>%1 + 复用 %2</translation>
    </message>
    <message>
        <source>Sessions per point</source>
        <translation>每个负载点的会话</translation>
    </message>
    <message>
        <source>A session&apos;s first turns against its later ones, whose prompts carry the conversation so far (the server&apos;s answers included); prompt cached: the share of the prompt tokens the server&apos;s usage reported as cached; medians across repeats.</source>
        <translation>会话的首轮与后续轮次对比，后续轮次的提示携带迄今为止的对话（包括服务器的回答）；提示词缓存命中：服务器 usage 报告为已缓存的提示 token 占比；取各次重复的中位数。</translation>
    </message>
    <message>
        <source>First turns&apos; TTFT p50 (ms)</source>
        <translation>首轮 TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>Later turns&apos; TTFT p50 (ms)</source>
        <translation>后续轮次 TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>First turns&apos; TTFT p99 (ms)</source>
        <translation>首轮 TTFT p99（毫秒）</translation>
    </message>
    <message>
        <source>Later turns&apos; TTFT p99 (ms)</source>
        <translation>后续轮次 TTFT p99（毫秒）</translation>
    </message>
    <message>
        <source>First turns&apos; prompt cached (%)</source>
        <translation>首轮提示词缓存命中（%）</translation>
    </message>
    <message>
        <source>Later turns&apos; prompt cached (%)</source>
        <translation>后续轮次提示词缓存命中（%）</translation>
    </message>
    <message>
        <source>TTFT of sessions&apos; first and later turns vs load</source>
        <translation>会话首轮与后续轮次的 TTFT 与负载</translation>
    </message>
    <message>
        <source>p50; solid: first turns, dashed: later turns (their prompts carry the conversation so far); median across repeats</source>
        <translation>p50；实线：首轮，虚线：后续轮次（其提示携带迄今为止的对话）；取各次重复的中位数</translation>
    </message>
    <message>
        <source>Sessions&apos; turns are drawn from vLLM&apos;s result set.</source>
        <translation>会话各轮次按 vLLM 的结果集绘制。</translation>
    </message>
    <message>
        <source> · first turns</source>
        <translation> · 首轮</translation>
    </message>
    <message>
        <source> · later turns</source>
        <translation> · 后续轮次</translation>
    </message>
    <message>
        <source>first turns: TTFT p50 %1 ms, p99 %2 ms</source>
        <translation>首轮：TTFT p50 %1 毫秒，p99 %2 毫秒</translation>
    </message>
    <message>
        <source>later turns: TTFT p50 %1 ms, p99 %2 ms</source>
        <translation>后续轮次：TTFT p50 %1 毫秒，p99 %2 毫秒</translation>
    </message>
    <message>
        <source>later turns&apos; prompt cached %1%</source>
        <translation>后续轮次提示词缓存命中 %1%</translation>
    </message>
    <message>
        <source>No point of these runs measured multi-turn sessions.</source>
        <translation>这些运行中没有负载点测量过多轮会话。</translation>
    </message>
    <message>
        <source>from nothing</source>
        <translation>从无到有</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>于 %1</translation>
    </message>
    <message>
        <source>one run each: a change under %1 in throughput, %2 in TPOT/ITL, %3 in TTFT or %4 in a p99 cannot be told from run-to-run noise; rerun with 3 repeats to tell smaller ones</source>
        <translation>每边仅一次运行：吞吐量低于 %1、TPOT/ITL 低于 %2、TTFT 低于 %3 或 p99 低于 %4 的变化无法与运行间噪声区分；以 3 次重复重新运行可分辨更小的变化</translation>
    </message>
    <message>
        <source>%1: no verdict: statistics only (a side has no per-request data to judge a change by)</source>
        <translation>%1：无结论：仅有统计值（一方没有逐请求数据，无法判断变化）</translation>
    </message>
    <message>
        <source>%1: no verdict: no metric has a value on both sides that compares</source>
        <translation>%1：无结论：没有双方都有且可比的指标值</translation>
    </message>
    <message>
        <source>%1: no change beyond run-to-run noise at any point</source>
        <translation>%1：所有点均无超出运行间噪声的变化</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>有好有坏</translation>
    </message>
    <message>
        <source>%1: %2 — %3</source>
        <translation>%1：%2 — %3</translation>
    </message>
    <message>
        <source> and </source>
        <translation>，且 </translation>
    </message>
    <message numerus="yes">
        <source>%n within noise</source>
        <translation>
            <numerusform>%n 项在噪声范围内</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n undecided</source>
        <translation>
            <numerusform>%n 项未判定</numerusform>
        </translation>
    </message>
    <message>
        <source>worse: %1 failed</source>
        <translation>更差：%1 失败</translation>
    </message>
    <message>
        <source>—: no successful request in B</source>
        <translation>—：B 中没有成功的请求</translation>
    </message>
    <message>
        <source>—: no successful request in A</source>
        <translation>—：A 中没有成功的请求</translation>
    </message>
    <message>
        <source>no verdict: statistics only</source>
        <translation>无结论：仅有统计值</translation>
    </message>
    <message>
        <source>—: no value on one side</source>
        <translation>—：一方没有该值</translation>
    </message>
    <message>
        <source>Conclusions</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>at all %1 points</source>
        <translation>在全部 %1 个点</translation>
    </message>
    <message>
        <source>%1 (largest at %2)</source>
        <translation>%1（最大于 %2）</translation>
    </message>
    <message>
        <source>At %1 up to %2% of requests had an output count that is an estimate (no usage and no /tokenize, or usage that contradicted the stream): output tokens, TPOT and throughput are estimates.</source>
        <translation>%1 处最多有 %2% 的请求的输出 token 数为估计值（没有用量信息且服务器没有 /tokenize，或用量信息与流相矛盾）：输出 token 数、TPOT 和吞吐均为估计值。</translation>
    </message>
    <message>
        <source>At %1 the server&apos;s usage contradicted the stream on %2 requests.</source>
        <translation>在 %1，服务器的 usage 在 %2 个请求上与流相矛盾。</translation>
    </message>
    <message>
        <source>It said %1 output tokens where %2 were counted from the streamed text (its /tokenize count, else its content events); the counted ones are used and marked estimated, so output throughput and TPOT do not fall to the usage&apos;s 0 or near it.</source>
        <translation>它报告 %1 个输出 token，而从流式文本计得 %2 个（/tokenize 计数，否则为内容事件数）；采用计得的数量并标记为估计值，因此输出吞吐量和 TPOT 不会跌到 usage 的 0 或接近 0。</translation>
    </message>
    <message>
        <source>It said %1 input tokens where the prompts had %2; the prompts&apos; own counts are used.</source>
        <translation>它报告 %1 个输入 token，而提示实际有 %2 个；采用提示自身的计数。</translation>
    </message>
    <message>
        <source>A gateway that rewrites or drops usage is the usual cause.</source>
        <translation>常见原因是网关改写或丢弃了 usage。</translation>
    </message>
    <message>
        <source>was killed by signal %1</source>
        <translation>被信号 %1 终止</translation>
    </message>
    <message>
        <source>exited with code %1</source>
        <translation>以代码 %1 退出</translation>
    </message>
    <message>
        <source>The launched server %1 while the run used it%2: the run stopped there, that point&apos;s failures are the exit&apos;s, and this variant is not called healthy. Its last lines are in the run&apos;s server log.</source>
        <translation>启动的服务器在运行使用它时%1%2：运行在此停止，该点的失败源于这次退出，此变体不会被判定为健康。其最后几行输出见本次运行的服务器日志。</translation>
    </message>
    <message>
        <source>, during %1</source>
        <translation>（在 %1 期间）</translation>
    </message>
    <message>
        <source>Usage contradicts the stream</source>
        <translation>usage 与流相矛盾</translation>
    </message>
    <message>
        <source>The server exited during the run</source>
        <translation>服务器在运行中退出</translation>
    </message>
    <message>
        <source>Change of B against A (×N from twice A on); better or worse only beyond the run-to-run noise (docs/metrics.md); —: nothing to compare. compare --json has every metric.</source>
        <translation>B 相对 A 的变化（达到 A 的两倍及以上时记为 ×N）；只有超出运行间噪声才判为更好或更差（见 docs/metrics.md）；—：没有可比的值。compare --json 包含所有指标。</translation>
    </message>
    <message>
        <source>%1, confirmed by the server&apos;s metrics</source>
        <translation>%1，已由服务器指标证实</translation>
    </message>
    <message>
        <source>%1 of requests failed</source>
        <translation>%1 的请求失败</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>within noise (&lt;%1)</source>
        <translation>在噪声范围内（&lt;%1）</translation>
    </message>
    <message>
        <source>within noise (&lt;%1 ms)</source>
        <translation>在噪声范围内（&lt;%1 ms）</translation>
    </message>
    <message>
        <source>within noise</source>
        <translation>在噪声范围内</translation>
    </message>
    <message>
        <source>%1 of requests failed: %2</source>
        <translation>%1 的请求失败：%2</translation>
    </message>
    <message>
        <source>key refused (HTTP 401/403)</source>
        <translation>密钥被拒绝（HTTP 401/403）</translation>
    </message>
    <message>
        <source>not found (HTTP 404)</source>
        <translation>未找到（HTTP 404）</translation>
    </message>
    <message>
        <source>rate-limited (HTTP 429)</source>
        <translation>被限流（HTTP 429）</translation>
    </message>
    <message>
        <source>server error (HTTP 5xx)</source>
        <translation>服务器错误（HTTP 5xx）</translation>
    </message>
    <message>
        <source>connection refused or unreachable</source>
        <translation>连接被拒绝或无法访问</translation>
    </message>
    <message>
        <source>TLS handshake failed</source>
        <translation>TLS 握手失败</translation>
    </message>
    <message>
        <source>timed out connecting</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <source>timed out before the first token</source>
        <translation>首个 token 之前超时</translation>
    </message>
    <message>
        <source>stream stalled</source>
        <translation>流停滞</translation>
    </message>
    <message>
        <source>timed out in all</source>
        <translation>总时长超时</translation>
    </message>
    <message>
        <source>broken or truncated stream</source>
        <translation>流损坏或被截断</translation>
    </message>
    <message>
        <source>worse: %1 failed (%2)</source>
        <translation>更差：%1 失败（%2）</translation>
    </message>
    <message>
        <source> (the noise this project&apos;s own reruns showed)</source>
        <translation>（依据本项目自身重新运行所显示的噪声）</translation>
    </message>
    <message>
        <source>Nothing to draw: no point has this metric. A buffered stream&apos;s decode timings (TPOT, ITL) are withheld (see Findings); other files may not give it.</source>
        <translation>无可绘制内容：没有任何点包含此指标。被缓冲的流的解码计时（TPOT、ITL）已隐去（见“发现”）；其他文件可能不提供此指标。</translation>
    </message>
    <message>
        <source>—: withheld. Something between client and server buffered the stream, so its decode timings (TPOT, ITL, answer TPOT) say nothing of the server; TTFT and E2EL stand (Findings).</source>
        <translation>—：已隐去。客户端与服务器之间有组件缓冲了流，其解码计时（TPOT、ITL、回答 TPOT）不反映服务器；TTFT 和 E2EL 仍然有效（见“发现”）。</translation>
    </message>
    <message>
        <source>A and B ran different models (%1, %2): the changes compare the models, not one change of configuration.</source>
        <translation>A 与 B 运行的是不同的模型（%1、%2）：这些变化比较的是模型，而不是单一的配置改动。</translation>
    </message>
    <message>
        <source>A and B ran against different endpoints (%1, %2): the changes include whatever differs between them.</source>
        <translation>A 与 B 针对的是不同的端点（%1、%2）：这些变化包含两者之间的一切差异。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Not recorded.</source>
        <translation>未记录。</translation>
    </message>
    <message>
        <source>%1 against %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <source>Diamond: the capacity knee, where throughput grows less than 10% per doubling of load while TTFT p99 still rises.</source>
        <translation>菱形：容量拐点——负载每翻一倍吞吐增长不到 10%，而 TTFT P99 仍在上升。</translation>
    </message>
    <message>
        <source>typed</source>
        <translation>手动输入</translation>
    </message>
    <message>
        <source>captured</source>
        <translation>从服务器采集</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>环境探测</translation>
    </message>
</context>
<context>
    <name>ServeScope::Report::ChartView</name>
    <message>
        <source>Logarithmic y axis</source>
        <translation>对数纵轴</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
</context>
<context>
    <name>ServeScope::ResultImportDialog</name>
    <message>
        <source>Import results</source>
        <translation>导入结果</translation>
    </message>
    <message>
        <source>File / run</source>
        <translation>文件 / 运行</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message numerus="yes">
        <source>Importing %n file(s) into %1…</source>
        <translation>
            <numerusform>正在将 %n 个文件导入 %1…</numerusform>
        </translation>
    </message>
    <message>
        <source>The project could not be opened for writing: %1</source>
        <translation>无法以写入方式打开项目：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) created, %1 error(s)</source>
        <translation>
            <numerusform>已创建 %n 个运行，%1 个错误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) created</source>
        <translation>
            <numerusform>已创建 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s), requests stored</source>
        <translation>
            <numerusform>%n 个负载点，已保存请求</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n point(s), statistics only</source>
        <translation>
            <numerusform>%n 个负载点，仅统计值</numerusform>
        </translation>
    </message>
    <message>
        <source>The file&apos;s per-request arrays are stored as requests: every statistic recomputes.</source>
        <translation>文件中的逐请求数组已按请求保存：每个统计值都可重新计算。</translation>
    </message>
    <message>
        <source>The file has no per-request arrays: only the statistics it gives are stored, so there are no bands and no percentiles other than the file&apos;s.</source>
        <translation>文件没有逐请求数组：只保存了它给出的统计值，因此没有分布带，也没有文件之外的百分位。</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) imported; they are in the project tree.</source>
        <translation>
            <numerusform>已导入 %n 个运行，可在项目树中查看。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) imported; %1 file(s) had errors (their other lines were imported).</source>
        <translation>
            <numerusform>已导入 %n 个运行；%1 个文件有错误（其余行已导入）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>核对</translation>
    </message>
    <message>
        <source>Not checked: no per-request arrays to recompute from</source>
        <translation>未核对：没有可用于重新计算的逐请求数组</translation>
    </message>
    <message>
        <source>Checked: %1 statistic(s) reproduced, %2 explained, %3 mismatched, %4 not reproducible</source>
        <translation>已核对：%1 项统计量复现一致，%2 项有已知原因，%3 项不一致，%4 项无法复现</translation>
    </message>
    <message>
        <source>file %1, recomputed %2 (relative difference %3)%4</source>
        <translation>文件 %1，重新计算 %2（相对差 %3）%4</translation>
    </message>
    <message numerus="yes">
        <source>; %n statistic(s) do not match the file&apos;s arrays</source>
        <translation>
            <numerusform>；%n 项统计量与文件的数组不一致</numerusform>
        </translation>
    </message>
    <message>
        <source>every request failed: imported as a failed run</source>
        <translation>所有请求均失败：已作为失败的运行导入</translation>
    </message>
</context>
<context>
    <name>ServeScope::ResultsExport</name>
    <message>
        <source>As shown in the window (at least 1200 × 700)</source>
        <translation>与窗口中显示的一致（至少 1200 × 700）</translation>
    </message>
    <message>
        <source>Report (1200 × 700)</source>
        <translation>报告（1200 × 700）</translation>
    </message>
    <message>
        <source>Slide (1600 × 900)</source>
        <translation>幻灯片（1600 × 900）</translation>
    </message>
    <message>
        <source>Slide, high DPI (1600 × 900 at 2×)</source>
        <translation>幻灯片，高分屏（1600 × 900，2 倍）</translation>
    </message>
    <message>
        <source>E&amp;xport results</source>
        <translation>导出结果(&amp;X)</translation>
    </message>
    <message>
        <source>Export &amp;chart…</source>
        <translation>导出图表(&amp;C)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export &amp;report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>HTML report (*.html);;PDF report (*.pdf)</source>
        <translation>HTML 报告 (*.html);;PDF 报告 (*.pdf)</translation>
    </message>
    <message>
        <source>Export &amp;table (CSV)…</source>
        <translation>导出表格（CSV）(&amp;T)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>C&amp;opy chart</source>
        <translation>复制图表(&amp;O)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Chart &amp;size</source>
        <translation>图表尺寸(&amp;S)</translation>
    </message>
    <message>
        <source>Custom size…</source>
        <translation>自定义尺寸…</translation>
    </message>
    <message>
        <source>Folder for the prompts of %1, %2, repeat %3</source>
        <translation>存放 %1、%2、第 %3 次重复的提示的文件夹</translation>
    </message>
    <message>
        <source>Exporting the prompts…</source>
        <translation>正在导出提示…</translation>
    </message>
    <message>
        <source>Prompt export failed: %1</source>
        <translation>提示导出失败：%1</translation>
    </message>
    <message>
        <source>The prompts cannot be exported</source>
        <translation>无法导出提示</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Prompts exported</source>
        <translation>提示已导出</translation>
    </message>
    <message>
        <source>The point&apos;s prompts, in the order it sent them:

%1 — vLLM&apos;s custom dataset
%2 — ShareGPT, for SGLang

The commands that replay them are below; the key goes through OPENAI_API_KEY.</source>
        <translation>该负载点发送的提示，按发送顺序：

%1 —— vLLM 的 custom 数据集
%2 —— ShareGPT，供 SGLang 使用

重放它们的命令见下方详情；密钥通过 OPENAI_API_KEY 传入。</translation>
    </message>
    <message>
        <source>Copy commands</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <source>Chart size</source>
        <translation>图表尺寸</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Charts are legible from 1200 × 700; a smaller size is used as typed, for copy and every export.</source>
        <translation>图表在 1200 × 700 及以上清晰可读；更小的尺寸将按输入原样用于复制和所有导出。</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>Custom size (%1 × %2)…</source>
        <translation>自定义尺寸（%1 × %2）…</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>there are no results to export yet</source>
        <translation>还没有可导出的结果</translation>
    </message>
    <message>
        <source>Writing the report…</source>
        <translation>正在生成报告…</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Chart copied to the clipboard (%1 × %2 px).</source>
        <translation>图表已复制到剪贴板（%1 × %2 像素）。</translation>
    </message>
</context>
<context>
    <name>ServeScope::ResultsPageController</name>
    <message>
        <source>Run %1 cannot be read: %2</source>
        <translation>无法读取运行 %1：%2</translation>
    </message>
    <message>
        <source>Run %1 cannot be read; see the log.</source>
        <translation>无法读取运行 %1，请查看日志。</translation>
    </message>
    <message>
        <source>Comparing %1</source>
        <translation>正在对比 %1</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n runs…</source>
        <translation>
            <numerusform>正在对比 %n 次运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading the run…</source>
        <translation>正在加载运行…</translation>
    </message>
</context>
<context>
    <name>ServeScope::ResultsView</name>
    <message>
        <source>Output throughput vs load</source>
        <translation>输出吞吐与负载</translation>
    </message>
    <message>
        <source>TTFT vs load</source>
        <translation>TTFT 与负载</translation>
    </message>
    <message>
        <source>TPOT vs load</source>
        <translation>TPOT 与负载</translation>
    </message>
    <message>
        <source>ITL vs load</source>
        <translation>ITL 与负载</translation>
    </message>
    <message>
        <source>E2E latency vs load</source>
        <translation>端到端延迟与负载</translation>
    </message>
    <message>
        <source>TPOT vs throughput</source>
        <translation>TPOT 与吞吐</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Copy table</source>
        <translation>复制表格</translation>
    </message>
    <message>
        <source>No results yet. Run the experiment, or pick a run in the project tree (Ctrl-click a second run to compare them).</source>
        <translation>还没有结果。请运行实验，或在项目树中选择一次运行（按住 Ctrl 再点选另一次运行即可对比）。</translation>
    </message>
    <message>
        <source>This run</source>
        <translation>本次运行</translation>
    </message>
    <message>
        <source>%1: simulator at %2× speed, times %2× shorter than the modelled hardware</source>
        <translation>%1：模拟器以 %2 倍速运行，时间比所模拟的硬件短 %2 倍</translation>
    </message>
    <message>
        <source>vLLM&apos;s result set (every measured request)</source>
        <translation>vLLM 的结果集（所有测量请求）</translation>
    </message>
    <message>
        <source>Steady window (all slots busy)</source>
        <translation>稳态窗口（所有槽位都忙）</translation>
    </message>
    <message>
        <source>Run over time (client and server)</source>
        <translation>运行随时间变化（客户端与服务器）</translation>
    </message>
    <message>
        <source>The result set the table, the charts and the comparison show. The steady window leaves out the ramp-up and drain: it opens when every slot is first busy and closes at the last dispatch (see docs/metrics.md).</source>
        <translation>表格、图表和对比所显示的结果集。稳态窗口去掉了爬坡和排空阶段：从所有槽位首次占满时开始，到最后一次派发时结束（见 docs/metrics.md）。</translation>
    </message>
    <message>
        <source>Loading the run&apos;s requests…</source>
        <translation>正在加载该运行的请求…</translation>
    </message>
    <message>
        <source>One run at a time: select a single run to see it over time.</source>
        <translation>一次只能看一个运行：请选择单个运行查看其随时间的变化。</translation>
    </message>
    <message>
        <source>Shown once the run has ended and is stored.</source>
        <translation>运行结束并保存后显示。</translation>
    </message>
    <message>
        <source>Export prompts as dataset…</source>
        <translation>将提示导出为数据集…</translation>
    </message>
    <message>
        <source>The exact prompts this point sent, as files vLLM&apos;s and SGLang&apos;s benchmark clients replay</source>
        <translation>该负载点实际发送的提示，导出为 vLLM 和 SGLang 基准测试客户端可重放的文件</translation>
    </message>
    <message>
        <source>All metrics</source>
        <translation>全部指标</translation>
    </message>
    <message>
        <source>Decided only (better or worse)</source>
        <translation>仅有结论的（更好或更差）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>发现（%1）</translation>
    </message>
    <message>
        <source>Open the folder</source>
        <translation>打开所在文件夹</translation>
    </message>
    <message>
        <source>TTFO (first answer token) vs load</source>
        <translation>TTFO（首个回答 token）与负载</translation>
    </message>
    <message>
        <source>Answer TPOT (after the first answer token) vs load</source>
        <translation>回答 TPOT（首个回答 token 之后）与负载</translation>
    </message>
    <message>
        <source>Why the numbers differ: %1</source>
        <translation>数字为何不同：%1</translation>
    </message>
    <message>
        <source>Only metrics comparable as published have a verdict; the others say why not.</source>
        <translation>只有按原样可比的指标给出结论；其余指标说明了不可比的原因。</translation>
    </message>
    <message>
        <source>Output throughput per GPU vs per user</source>
        <translation>每 GPU 输出吞吐量与每用户速度</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>无目标</translation>
    </message>
    <message>
        <source> tok/s per user</source>
        <translation> token/秒（每用户）</translation>
    </message>
    <message>
        <source>Each curve&apos;s output tokens/s per GPU at this speed per user, interpolated between its measured points (never beyond them)</source>
        <translation>各曲线在该每用户速度下的每 GPU 输出 token/秒，在其测量点之间插值（从不外推）</translation>
    </message>
    <message>
        <source>Compare at</source>
        <translation>比较位置</translation>
    </message>
    <message>
        <source>TTFT of sessions&apos; first and later turns vs load</source>
        <translation>会话首轮与后续轮次的 TTFT 与负载</translation>
    </message>
    <message>
        <source>and %1 (not listed)</source>
        <translation>另有 %1（未列出）</translation>
    </message>
    <message>
        <source>No change decided: %1 (untick to list them)</source>
        <translation>没有判定的变化：%1（取消勾选以列出）</translation>
    </message>
</context>
<context>
    <name>ServeScope::Run</name>
    <message>
        <source>prefix cache reset via %1 failed</source>
        <translation>通过 %1 重置前缀缓存失败</translation>
    </message>
    <message>
        <source>shard %1/%2 was ready %3 ms after the start of its point %4 (%5): it starts late; the previous point outlasted --point-slot</source>
        <translation>分片 %1/%2 在其负载点 %4（%5）开始 %3 毫秒后才就绪：它晚开始了；上一个负载点超出了 --point-slot</translation>
    </message>
    <message>
        <source>shard %1/%2 was ready %3 ms after the start of its point %4 (%5): it starts late</source>
        <translation>分片 %1/%2 在其负载点 %4（%5）开始 %3 毫秒后才就绪：它晚开始了</translation>
    </message>
    <message>
        <source>no variant named &apos;%1&apos;</source>
        <translation>没有名为“%1”的变体</translation>
    </message>
    <message>
        <source>the experiment has no variants to run</source>
        <translation>实验中没有可运行的变体</translation>
    </message>
    <message>
        <source>cannot open the project: %1</source>
        <translation>无法打开项目：%1</translation>
    </message>
    <message>
        <source>storage: %1</source>
        <translation>存储：%1</translation>
    </message>
    <message>
        <source>cannot record the run: %1</source>
        <translation>无法记录运行：%1</translation>
    </message>
    <message>
        <source>run %1 started: %2</source>
        <translation>运行 %1 已开始：%2</translation>
    </message>
    <message>
        <source>cancelled; everything measured so far is kept</source>
        <translation>已取消；已测量的数据全部保留</translation>
    </message>
    <message>
        <source>no request succeeded</source>
        <translation>没有成功的请求</translation>
    </message>
    <message>
        <source>%1 has no /tokenize: text prompts are sized by three max_tokens 1 calibration requests that read usage.prompt_tokens, and without usage in the stream input counts are estimates</source>
        <translation>%1 没有 /tokenize：文本提示的长度由三次 max_tokens 为 1、读取 usage.prompt_tokens 的校准请求确定；若流中没有 usage，输入 token 数为估计值</translation>
    </message>
    <message>
        <source>%1 has no /metrics with vllm:num_requests_running or sglang:num_running_reqs: after warmup the measured clock starts at once, without waiting for the server to drain</source>
        <translation>%1 没有带 vllm:num_requests_running 或 sglang:num_running_reqs 的 /metrics：预热后立即开始测量计时，不等服务器排空</translation>
    </message>
    <message>
        <source>simulator at %1: %2</source>
        <translation>模拟器位于 %1：%2</translation>
    </message>
    <message>
        <source>the server at %1 runs on this host and shares its CPUs with the client; see the dispatch lag and client CPU of each point (client-limited)</source>
        <translation>%1 上的服务器与客户端运行在同一主机并共用 CPU；请查看每个负载点的调度延迟和客户端 CPU（客户端受限）</translation>
    </message>
    <message>
        <source>launched server pid %1: %2</source>
        <translation>已启动服务器，pid %1：%2</translation>
    </message>
    <message>
        <source>server ready after %1 s (GET %2 answered 200)</source>
        <translation>服务器在 %1 秒后就绪（GET %2 返回 200）</translation>
    </message>
    <message>
        <source>the launched server reports none of its settings: nothing to check</source>
        <translation>启动的服务器没有报告任何设置：无可检查</translation>
    </message>
    <message>
        <source>the launched server runs with %1</source>
        <translation>启动的服务器运行参数为 %1</translation>
    </message>
    <message>
        <source>the launched server does not run with the variant&apos;s settings: %1; stopping the run (is a {server.args.NAME} placeholder missing from server.launch.argv?)</source>
        <translation>启动的服务器没有按变体的设置运行：%1；停止运行（server.launch.argv 中是否缺少 {server.args.NAME} 占位符？）</translation>
    </message>
    <message>
        <source>the results folder is incomplete: %1</source>
        <translation>结果目录不完整：%1</translation>
    </message>
    <message>
        <source>storage: the last records could not be committed</source>
        <translation>存储：最后的记录未能提交</translation>
    </message>
    <message>
        <source>%1 did not answer with known series: the server&apos;s running and waiting requests and KV cache usage come from its scheduler log lines</source>
        <translation>%1 没有以已知序列应答：服务器的运行中和等待中请求数以及 KV 缓存使用率取自其调度器日志行</translation>
    </message>
    <message>
        <source>the disk of %1 has %2 MiB free and this run needs about %3 MiB: free space or choose another project file; nothing was sent</source>
        <translation>%1 所在磁盘剩余 %2 MiB，本次运行约需 %3 MiB：请释放空间或选择其他项目文件；未发送任何请求</translation>
    </message>
    <message>
        <source>the disk of %1 has %2 MiB free and this run needs about %3 MiB</source>
        <translation>%1 所在磁盘剩余 %2 MiB，本次运行约需 %3 MiB</translation>
    </message>
    <message>
        <source>the project could not store the run (%1): the load was stopped; %2 requests are kept</source>
        <translation>项目无法保存本次运行（%1）：负载已停止；保留了 %2 个请求</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>run %1, %2 %3: no stored requests (imported without per-request arrays), so SGLang&apos;s figures cannot be computed</source>
        <translation>运行 %1，%2 %3：没有保存的请求（导入时没有逐请求数组），因此无法计算 SGLang 的指标</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>run %1 has no finished point to report</source>
        <translation>运行 %1 没有可写入报告的已完成负载点</translation>
    </message>
    <message>
        <source>trace replay: %1 requests of a %2 trace at %3 req/s (%4x its own %5 req/s)</source>
        <translation>追踪回放：%2 追踪的 %1 个请求，速率 %3 请求/秒（其自身 %5 请求/秒的 %4 倍）</translation>
    </message>
    <message>
        <source>%1 %2 r%3 settled after %4 successful requests (medians known within %5%): stopped sending</source>
        <translation>%1 %2 r%3 在 %4 个成功请求后达到稳定（中位数精度 %5%）：已停止发送</translation>
    </message>
    <message>
        <source>%1 %2 r%3 meets the SLOs on its first %4 successful requests: stopped sending</source>
        <translation>%1 %2 r%3 按其前 %4 个成功请求满足 SLO：已停止发送</translation>
    </message>
    <message>
        <source>%1 %2 r%3 misses the SLOs on its first %4 successful requests: stopped sending</source>
        <translation>%1 %2 r%3 按其前 %4 个成功请求未满足 SLO：已停止发送</translation>
    </message>
    <message>
        <source>storage: the project&apos;s writer is %1 records behind the load; they are kept in memory until stored</source>
        <translation>存储：项目写入器落后负载 %1 条记录；这些记录在写入前保存在内存中</translation>
    </message>
    <message>
        <source>the run to compare with: %1</source>
        <translation>要对比的运行：%1</translation>
    </message>
    <message>
        <source>the levels of run %1 can be reused only by a capacity search (load.mode &quot;capacity&quot;)</source>
        <translation>只有容量搜索（load.mode &quot;capacity&quot;）才能复用运行 %1 的级别</translation>
    </message>
    <message>
        <source>the run whose levels to reuse: %1</source>
        <translation>要复用其级别的运行：%1</translation>
    </message>
    <message>
        <source>run %1 was measured under the %2 definitions and this search uses %3: its levels cannot be reused</source>
        <translation>运行 %1 按 %2 定义测量，而本次搜索使用 %3：无法复用它的级别</translation>
    </message>
    <message>
        <source>results folder: the generated texts of %1 that the project does not hold are empty in its result file (%2)</source>
        <translation>结果目录：项目中未保存的 %1 生成文本在其结果文件中留空（%2）</translation>
    </message>
</context>
<context>
    <name>ServeScope::RunMonitor</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p%</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>TTFT (rolling)</source>
        <translation>TTFT（滚动）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>ITL (rolling)</source>
        <translation>ITL（滚动）</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>No run in progress.</source>
        <translation>没有正在进行的运行。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>%1 completed, %2 failed, %3 cancelled</source>
        <translation>%1 个完成，%2 个失败，%3 个取消</translation>
    </message>
    <message>
        <source>Run finished: %1.</source>
        <translation>运行完成：%1。</translation>
    </message>
    <message>
        <source>Run cancelled; everything measured so far was kept (%1).</source>
        <translation>运行已取消，已测得的数据全部保留（%1）。</translation>
    </message>
    <message>
        <source>Run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>ETA unknown</source>
        <translation>剩余时间未知</translation>
    </message>
    <message>
        <source>%1 s left</source>
        <translation>剩余 %1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s left</source>
        <translation>剩余 %1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min left</source>
        <translation>剩余 %1 小时 %2 分</translation>
    </message>
    <message>
        <source>Variant %1 (%2/%3) · point %4 (%5/%6) · repeat %7/%8%9</source>
        <translation>变体 %1（%2/%3）· 负载点 %4（%5/%6）· 重复 %7/%8%9</translation>
    </message>
    <message>
        <source> · warmup</source>
        <translation> · 预热</translation>
    </message>
    <message>
        <source>In flight %1 · completed %2 · failed %3 · %4 req/s</source>
        <translation>进行中 %1 · 完成 %2 · 失败 %3 · %4 请求/秒</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>First: %1</source>
        <translation>第一条：%1</translation>
    </message>
    <message>
        <source>Starting the server…</source>
        <translation>正在启动服务器…</translation>
    </message>
    <message>
        <source>Preparing prompts…</source>
        <translation>正在准备提示…</translation>
    </message>
    <message>
        <source>Warming up…</source>
        <translation>正在预热…</translation>
    </message>
    <message>
        <source>Waiting for the shards&apos; common start…</source>
        <translation>正在等待各分片的共同开始时间…</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Saving the point…</source>
        <translation>正在保存负载点…</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) failed with %1. The first said: %2</source>
        <translation>
            <numerusform>%n 个请求以 %1 失败。第一个返回：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>(no message)</source>
        <translation>（无信息）</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <source>Variants:</source>
        <translation>变体：</translation>
    </message>
    <message>
        <source>Load points:</source>
        <translation>负载点：</translation>
    </message>
    <message>
        <source>Measured requests:</source>
        <translation>测量请求：</translation>
    </message>
    <message>
        <source>Estimated time:</source>
        <translation>预计时间：</translation>
    </message>
    <message>
        <source>Capacity search:</source>
        <translation>容量搜索：</translation>
    </message>
    <message>
        <source>request rate %1 to %2 req/s</source>
        <translation>请求速率 %1 至 %2 请求/秒</translation>
    </message>
    <message>
        <source>concurrency %1 to %2</source>
        <translation>并发数 %1 至 %2</translation>
    </message>
    <message numerus="yes">
        <source>depends on where the capacity lies: at most %n level(s) per variant</source>
        <translation>
            <numerusform>取决于容量所在位置：每个变体最多 %n 个级别</numerusform>
        </translation>
    </message>
    <message>
        <source>No earlier run</source>
        <translation>不对比</translation>
    </message>
    <message>
        <source>An earlier run of this project to compare with while this one runs: its figures at the point under way are drawn dashed on the charts, and each point, once measured, is judged against it.</source>
        <translation>运行期间用于对比的本项目早先运行：它在当前负载点的数值以虚线画在图表上，每个负载点测完后都会与它对比并给出结论。</translation>
    </message>
    <message>
        <source>Compare &amp;with:</source>
        <translation>对比对象(&amp;W)：</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>负载点</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Run %1 · %2</source>
        <translation>运行 %1 · %2</translation>
    </message>
    <message>
        <source>better</source>
        <translation>更好</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>更差</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>有好有坏</translation>
    </message>
    <message>
        <source>not in that run</source>
        <translation>该运行中没有</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>The earlier run has no such point.</source>
        <translation>早先的运行没有这个负载点。</translation>
    </message>
    <message>
        <source>Points against run %1 (dashed on the charts):</source>
        <translation>各负载点对比运行 %1（图中虚线）：</translation>
    </message>
    <message>
        <source>Reuse its &amp;levels</source>
        <translation>复用其级别(&amp;L)</translation>
    </message>
    <message>
        <source>The capacity search takes the levels the chosen run measured (same variant and lengths) as known, judged by this experiment&apos;s SLOs, and measures only what they leave open.</source>
        <translation>容量搜索把所选运行测过的级别（相同变体和长度）当作已知，按本实验的 SLO 判定，只测量它们未能确定的部分。</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>no change beyond noise</source>
        <translation>无超出噪声的变化</translation>
    </message>
    <message>
        <source>No headline metric changed beyond run-to-run noise: %1.</source>
        <translation>没有主要指标的变化超出运行间噪声：%1。</translation>
    </message>
    <message>
        <source>No headline metric changed beyond run-to-run noise and the spread of the repeats.</source>
        <translation>没有主要指标的变化超出运行间噪声与重复间的离散度。</translation>
    </message>
</context>
<context>
    <name>ServeScope::RunPageController</name>
    <message>
        <source>The run in progress uses the configuration it started with; these edits apply to the next run.</source>
        <translation>正在进行的运行使用它开始时的配置；这些修改将在下一次运行时生效。</translation>
    </message>
    <message>
        <source>&amp;Run experiment</source>
        <translation>运行实验(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>&amp;Cancel run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <source>Open or create a project first.</source>
        <translation>请先打开或新建项目。</translation>
    </message>
    <message>
        <source>Fix the problems listed under the fields before running.</source>
        <translation>运行前请修复字段下方列出的问题。</translation>
    </message>
    <message>
        <source>Ready to run.</source>
        <translation>可以运行。</translation>
    </message>
    <message>
        <source>Not starting the experiment&apos;s launch commands (start the servers yourself, or pass --allow-launch).</source>
        <translation>不执行实验的启动命令（请自行启动服务器，或使用 --allow-launch）。</translation>
    </message>
    <message>
        <source>Launch the servers?</source>
        <translation>启动服务器吗？</translation>
    </message>
    <message>
        <source>Each variant starts its own server with the command below (no shell), waits until it is ready, and stops it afterwards. Start them?</source>
        <translation>每个变体都会用下面的命令（不经过 shell）启动自己的服务器，等待其就绪，结束后将其停止。要启动吗？</translation>
    </message>
    <message>
        <source>Launch and run</source>
        <translation>启动并运行</translation>
    </message>
    <message>
        <source>Run without launching</source>
        <translation>不启动，直接运行</translation>
    </message>
    <message>
        <source>Checking %1 before the run…</source>
        <translation>运行前正在检查 %1…</translation>
    </message>
    <message>
        <source>Checking the endpoint before the run, as Test connection does.</source>
        <translation>运行前正在检查端点，与“测试连接”的检查相同。</translation>
    </message>
    <message>
        <source>The endpoint did not pass the check</source>
        <translation>端点未通过检查</translation>
    </message>
    <message>
        <source>Before the run, the same check as Test connection failed:

%1</source>
        <translation>运行前，与“测试连接”相同的检查失败了：

%1</translation>
    </message>
    <message>
        <source>Run anyway</source>
        <translation>仍然运行</translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <source>Run started: %1</source>
        <translation>运行已开始：%1</translation>
    </message>
    <message>
        <source>Cancelling: requests in flight end as cancelled; everything finished is kept.</source>
        <translation>正在取消：进行中的请求将标记为已取消，已完成的全部保留。</translation>
    </message>
    <message>
        <source>Run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Run %1: %2 completed, %3 failed, %4 cancelled.</source>
        <translation>运行%1：%2 个完成，%3 个失败，%4 个取消。</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 × %2, the first said: %3</source>
        <translation>%1 × %2，第一条信息：%3</translation>
    </message>
    <message>
        <source>(no message)</source>
        <translation>（无信息）</translation>
    </message>
    <message>
        <source>A run is in progress: cancel it first.</source>
        <translation>有运行正在进行：请先取消。</translation>
    </message>
    <message>
        <source>Run %1 cannot be rerun: its configuration does not read.</source>
        <translation>运行 %1 无法重跑：其配置无法读取。</translation>
    </message>
    <message>
        <source>Rerunning run %1 to check it.</source>
        <translation>正在重跑运行 %1 以进行核对。</translation>
    </message>
    <message>
        <source>The rerun of run %1 could not be checked: %2</source>
        <translation>无法检查运行 %1 的重跑：%2</translation>
    </message>
    <message>
        <source>%1: agree</source>
        <translation>%1：一致</translation>
    </message>
    <message>
        <source>%1: missing from the rerun</source>
        <translation>%1：重跑中缺少</translation>
    </message>
    <message>
        <source>%1: differ (%2)</source>
        <translation>%1：不一致（%2）</translation>
    </message>
    <message>
        <source>environment: %1</source>
        <translation>环境：%1</translation>
    </message>
    <message>
        <source>Rerun agrees with run %1 within 5% at every point.</source>
        <translation>重跑结果在每个负载点上都与运行 %1 相差不超过 5%。</translation>
    </message>
    <message>
        <source>Rerun differs from run %1 at some points; see the log and the delta table.</source>
        <translation>重跑结果在部分负载点上与运行 %1 不一致；请查看日志和对比表。</translation>
    </message>
    <message>
        <source>A run is in progress</source>
        <translation>有运行正在进行</translation>
    </message>
    <message>
        <source>Closing the window cancels the run in progress. Requests that finished are kept.</source>
        <translation>关闭窗口将取消正在进行的运行。已完成的请求会被保留。</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Cancel run and close</source>
        <translation>取消运行并关闭</translation>
    </message>
</context>
<context>
    <name>ServeScope::RunSession</name>
    <message>
        <source>The API key could not be read: %1</source>
        <translation>无法读取 API 密钥：%1</translation>
    </message>
    <message>
        <source>Spaces or line breaks around the API key were removed.</source>
        <translation>已去除 API 密钥前后的空格或换行。</translation>
    </message>
</context>
<context>
    <name>ServeScope::ServerTab</name>
    <message>
        <source>Argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Change engine</source>
        <translation>修改引擎</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Edit server arguments</source>
        <translation>编辑服务器参数</translation>
    </message>
    <message>
        <source>One argument per line, e.g.
vllm
serve
Qwen/Qwen2-7B-Instruct
--max-num-seqs
{server.args.max_num_seqs}</source>
        <translation>每行一个参数，例如
vllm
serve
Qwen/Qwen2-7B-Instruct
--max-num-seqs
{server.args.max_num_seqs}</translation>
    </message>
    <message>
        <source>Launch command</source>
        <translation>启动命令</translation>
    </message>
    <message>
        <source>Edit launch command</source>
        <translation>编辑启动命令</translation>
    </message>
    <message>
        <source>Runs as</source>
        <translation>实际运行</translation>
    </message>
    <message>
        <source>Readiness probe</source>
        <translation>就绪探测</translation>
    </message>
    <message>
        <source>Edit readiness probe</source>
        <translation>编辑就绪探测</translation>
    </message>
    <message>
        <source>A DCGM exporter&apos;s metrics URL: GPU utilisation, DRAM and SM activity and power are scraped beside the server&apos;s /metrics during every point. Empty: none.</source>
        <translation>DCGM exporter 的指标 URL：每个负载点期间，会在服务器 /metrics 之外采集 GPU 利用率、DRAM 与 SM 活跃度以及功耗。留空表示不采集。</translation>
    </message>
    <message>
        <source>GPU telemetry (DCGM)</source>
        <translation>GPU 遥测（DCGM）</translation>
    </message>
    <message>
        <source>Edit DCGM exporter URL</source>
        <translation>编辑 DCGM exporter URL</translation>
    </message>
    <message>
        <source>from the server arguments</source>
        <translation>取自服务器参数</translation>
    </message>
    <message>
        <source>GPUs serving the endpoint, for throughput per GPU and cost. 0: tensor × pipeline × data parallel sizes of the server arguments, else the environment&apos;s gpu_count, else 1.</source>
        <translation>为该端点提供服务的 GPU 数，用于每 GPU 吞吐量和成本。0：取服务器参数中张量 × 流水线 × 数据并行规模，否则取环境快照的 gpu_count，否则为 1。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Edit GPU count</source>
        <translation>编辑 GPU 数</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>Price of one GPU for an hour, in the currency you compare in: the report and the charts then give the price of a million output tokens at each point.</source>
        <translation>一个 GPU 一小时的价格（使用你比较时所用的货币）：报告和图表随后给出每个负载点每百万输出 token 的价格。</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>Edit GPU-hour price</source>
        <translation>编辑 GPU 小时价格</translation>
    </message>
    <message>
        <source>Environment snapshot</source>
        <translation>环境快照</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Add field</source>
        <translation>添加字段</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Paste JSON…</source>
        <translation>粘贴 JSON…</translation>
    </message>
    <message>
        <source>Paste the JSON printed by the env-probe script on the server host</source>
        <translation>粘贴服务器主机上 env-probe 脚本输出的 JSON</translation>
    </message>
    <message>
        <source>Capture from server</source>
        <translation>从服务器采集</translation>
    </message>
    <message>
        <source>typed</source>
        <translation>手动输入</translation>
    </message>
    <message>
        <source>captured from server</source>
        <translation>从服务器采集</translation>
    </message>
    <message>
        <source>env probe</source>
        <translation>环境探测</translation>
    </message>
    <message>
        <source>(started by someone else)</source>
        <translation>（由他人启动）</translation>
    </message>
    <message>
        <source>Edit environment snapshot</source>
        <translation>编辑环境快照</translation>
    </message>
    <message>
        <source>no fields found</source>
        <translation>未找到字段</translation>
    </message>
    <message>
        <source>Paste environment JSON</source>
        <translation>粘贴环境 JSON</translation>
    </message>
    <message>
        <source>JSON from the env-probe script (an object, or a list of [field, value] pairs):</source>
        <translation>env-probe 脚本输出的 JSON（一个对象，或 [字段, 值] 对的列表）：</translation>
    </message>
    <message>
        <source>This is not usable JSON: %1</source>
        <translation>这不是可用的 JSON：%1</translation>
    </message>
    <message>
        <source>Paste environment snapshot</source>
        <translation>粘贴环境快照</translation>
    </message>
    <message>
        <source>required, e.g. /v1/models</source>
        <translation>必填，例如 /v1/models</translation>
    </message>
</context>
<context>
    <name>ServeScope::Storage</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>was written by a newer ServeScope (schema %1; this version reads up to %2)</source>
        <translation>由更新版本的 ServeScope 写入（架构版本 %1；本版本最高只能读取 %2）</translation>
    </message>
    <message>
        <source>cannot be read (%1)</source>
        <translation>无法读取（%1）</translation>
    </message>
    <message>
        <source>is empty; not a ServeScope project</source>
        <translation>文件为空；不是 ServeScope 项目</translation>
    </message>
    <message>
        <source>not a ServeScope project (not an SQLite database)</source>
        <translation>不是 ServeScope 项目（不是 SQLite 数据库）</translation>
    </message>
    <message>
        <source>not a ServeScope project (SQLite database with application id 0x%1)</source>
        <translation>不是 ServeScope 项目（应用 ID 为 0x%1 的 SQLite 数据库）</translation>
    </message>
    <message>
        <source>is corrupt or not a database (%1)</source>
        <translation>文件已损坏或不是数据库（%1）</translation>
    </message>
    <message>
        <source>not a ServeScope project</source>
        <translation>不是 ServeScope 项目</translation>
    </message>
    <message>
        <source>has no ServeScope schema</source>
        <translation>没有 ServeScope 的数据库架构</translation>
    </message>
    <message>
        <source>is corrupt (tables missing)</source>
        <translation>文件已损坏（缺少数据表）</translation>
    </message>
    <message>
        <source>is corrupt (%1)</source>
        <translation>文件已损坏（%1）</translation>
    </message>
    <message>
        <source>already exists</source>
        <translation>已存在</translation>
    </message>
    <message>
        <source>cannot be created (%1)</source>
        <translation>无法创建（%1）</translation>
    </message>
    <message>
        <source>cannot enable WAL (%1)</source>
        <translation>无法启用 WAL（%1）</translation>
    </message>
    <message>
        <source>cannot be opened (%1)</source>
        <translation>无法打开（%1）</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
    <message>
        <source>%1: not a file</source>
        <translation>%1：不是文件</translation>
    </message>
    <message>
        <source>no run %1</source>
        <translation>没有运行 %1</translation>
    </message>
    <message>
        <source>no run &apos;%1&apos;</source>
        <translation>没有名为“%1”的运行</translation>
    </message>
    <message>
        <source>more than one run is named &apos;%1&apos;; use its id</source>
        <translation>有多个运行名为“%1”；请改用其 ID</translation>
    </message>
    <message>
        <source>the project was written by a newer ServeScope (schema %1, this build reads up to %2)</source>
        <translation>该项目由更新版本的 ServeScope 写入（架构版本 %1，本版本最高只能读取 %2）</translation>
    </message>
    <message>
        <source>cannot be created (its journal was not written back)</source>
        <translation>无法创建（日志未写回）</translation>
    </message>
    <message>
        <source>check stopped</source>
        <translation>检查已停止</translation>
    </message>
    <message>
        <source>is corrupt or not a database</source>
        <translation>已损坏或不是数据库</translation>
    </message>
</context>
<context>
    <name>ServeScope::Syntax</name>
    <message>
        <source> (a .json file is read as JSON only; TOML needs .toml)</source>
        <translation>（.json 文件只按 JSON 读取；TOML 文件需用 .toml 扩展名）</translation>
    </message>
    <message>
        <source>unexpected text after the JSON value</source>
        <translation>JSON 值之后有多余的内容</translation>
    </message>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列：%3</translation>
    </message>
    <message>
        <source>line %1, column %2 (at %3): %4</source>
        <translation>第 %1 行第 %2 列（位于 %3）：%4</translation>
    </message>
    <message>
        <source>nesting deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>unexpected end of file</source>
        <translation>文件意外结束</translation>
    </message>
    <message>
        <source>invalid literal</source>
        <translation>无效的字面量</translation>
    </message>
    <message>
        <source>NaN and Infinity are not JSON numbers (write &quot;inf&quot; where a rate allows it)</source>
        <translation>NaN 和 Infinity 不是 JSON 数字（在允许的速率处写 &quot;inf&quot;）</translation>
    </message>
    <message>
        <source>expected a value</source>
        <translation>此处应为一个值</translation>
    </message>
    <message>
        <source>numbers must not have leading zeros</source>
        <translation>数字不能有前导零</translation>
    </message>
    <message>
        <source>expected digits after the decimal point</source>
        <translation>小数点后应为数字</translation>
    </message>
    <message>
        <source>expected digits in the exponent</source>
        <translation>指数部分应为数字</translation>
    </message>
    <message>
        <source>number out of range</source>
        <translation>数字超出范围</translation>
    </message>
    <message>
        <source>incomplete \u escape</source>
        <translation>\u 转义不完整</translation>
    </message>
    <message>
        <source>invalid \u escape</source>
        <translation>无效的 \u 转义</translation>
    </message>
    <message>
        <source>unpaired surrogate in \u escape</source>
        <translation>\u 转义中有未配对的代理项</translation>
    </message>
    <message>
        <source>invalid escape in a string</source>
        <translation>字符串中有无效的转义</translation>
    </message>
    <message>
        <source>unterminated string</source>
        <translation>字符串未结束</translation>
    </message>
    <message>
        <source>control character in a string</source>
        <translation>字符串中有控制字符</translation>
    </message>
    <message>
        <source>expected &apos;,&apos; or &apos;]&apos;</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;]&apos;</translation>
    </message>
    <message>
        <source>expected a member name in double quotes</source>
        <translation>此处应为双引号括起的成员名</translation>
    </message>
    <message>
        <source>duplicate key &quot;%1&quot;</source>
        <translation>重复的键 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>expected &apos;:&apos; after a member name</source>
        <translation>成员名之后应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>expected &apos;,&apos; or &apos;}&apos;</source>
        <translation>此处应为 &apos;,&apos; 或 &apos;}&apos;</translation>
    </message>
    <message>
        <source>file is larger than %1 bytes</source>
        <translation>文件超过 %1 字节</translation>
    </message>
    <message>
        <source>line %1: invalid UTF-8</source>
        <translation>第 %1 行：无效的 UTF-8</translation>
    </message>
    <message>
        <source>a non-ASCII character cannot follow a backslash</source>
        <translation>反斜杠后不能跟非 ASCII 字符</translation>
    </message>
    <message>
        <source>a line-ending backslash cannot be followed by a non-ASCII character</source>
        <translation>行尾反斜杠后不能跟非 ASCII 字符</translation>
    </message>
    <message>
        <source>non-ASCII characters in keys are not supported</source>
        <translation>键中不支持非 ASCII 字符</translation>
    </message>
    <message>
        <source>expected a key in the table header</source>
        <translation>表头中应有键名</translation>
    </message>
    <message>
        <source>non-ASCII character outside a string or comment</source>
        <translation>字符串或注释之外有非 ASCII 字符</translation>
    </message>
    <message>
        <source>control character outside a string</source>
        <translation>字符串之外有控制字符</translation>
    </message>
    <message>
        <source>nesting deeper than 64 levels</source>
        <translation>嵌套超过 64 层</translation>
    </message>
    <message>
        <source>nan is not a number ServeScope accepts</source>
        <translation>ServeScope 不接受 nan 作为数字</translation>
    </message>
    <message>
        <source>dates and times are not supported here</source>
        <translation>此处不支持日期和时间</translation>
    </message>
    <message>
        <source>%1: file is larger than %2 bytes</source>
        <translation>%1：文件超过 %2 字节</translation>
    </message>
    <message>
        <source>unrecognised TOML layout: expected [bench] or [client] and [load_matrix.NAME]</source>
        <translation>无法识别的 TOML 布局：应有 [bench]，或 [client] 与 [load_matrix.NAME]</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
</context>
<context>
    <name>ServeScope::TeamDbJobs</name>
    <message>
        <source>Another team database job is in progress.</source>
        <translation>另一个团队数据库任务正在进行中。</translation>
    </message>
</context>
<context>
    <name>ServeScope::TeamFlow</name>
    <message numerus="yes">
        <source>%n run(s) copied from the team database.</source>
        <translation>
            <numerusform>已从团队数据库复制 %n 个运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Publish to team database</source>
        <translation>发布到团队数据库</translation>
    </message>
    <message>
        <source>Set the team database in File → Team runs… first (%1).</source>
        <translation>请先在“文件 → 团队运行…”中设置团队数据库（%1）。</translation>
    </message>
    <message>
        <source>A publication is in progress.</source>
        <translation>正在发布中。</translation>
    </message>
    <message>
        <source>Publishing run %1 to %2…</source>
        <translation>正在将运行 %1 发布到 %2…</translation>
    </message>
    <message>
        <source>Run %1 was not published.</source>
        <translation>运行 %1 未发布。</translation>
    </message>
    <message>
        <source>Run %1 was not published to %2: %3</source>
        <translation>运行 %1 未能发布到 %2：%3</translation>
    </message>
    <message>
        <source>Run %1 was already in %2 as %3.</source>
        <translation>运行 %1 已在 %2 中，ID 为 %3。</translation>
    </message>
    <message numerus="yes">
        <source>Run %1 published to %2 as %3 (%n request(s)).</source>
        <translation>
            <numerusform>运行 %1 已发布到 %2，ID 为 %3（%n 个请求）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServeScope::TeamRunsDialog</name>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>any, e.g. vllm</source>
        <translation>任意，例如 vllm</translation>
    </message>
    <message>
        <source>comma-separated, all must match</source>
        <translation>逗号分隔，须全部匹配</translation>
    </message>
    <message>
        <source>YYYY-MM-DD</source>
        <translation>YYYY-MM-DD</translation>
    </message>
    <message>
        <source>&amp;List</source>
        <translation>列出(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Open in this project</source>
        <translation>在本项目中打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Password…</source>
        <translation>密码(&amp;P)…</translation>
    </message>
    <message>
        <source>Team runs</source>
        <translation>团队运行</translation>
    </message>
    <message>
        <source>The team database (PostgreSQL). The password is kept in the OS keychain, never in the URL.</source>
        <translation>团队数据库（PostgreSQL）。密码保存在系统钥匙串中，绝不写在 URL 里。</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Started from</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>before</source>
        <translation>早于</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Started (UTC)</source>
        <translation>开始时间（UTC）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Published by</source>
        <translation>发布者</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Save the project first: runs are copied into its file</source>
        <translation>请先保存项目：运行会被复制到项目文件中</translation>
    </message>
    <message>
        <source>Copy the selected runs into this project to compare them</source>
        <translation>将选中的运行复制到本项目以便对比</translation>
    </message>
    <message>
        <source>The password is stored in the OS keychain.</source>
        <translation>密码已保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>The password was not stored: %1</source>
        <translation>密码未保存：%1</translation>
    </message>
    <message>
        <source>Enter the team database&apos;s URL and its password, then List.</source>
        <translation>请输入团队数据库的 URL 和密码，然后点击“列出”。</translation>
    </message>
    <message>
        <source>List shows the published runs that match the filters.</source>
        <translation>“列出”会显示符合筛选条件的已发布运行。</translation>
    </message>
    <message>
        <source>The database URL is not usable: %1</source>
        <translation>数据库 URL 无法使用：%1</translation>
    </message>
    <message>
        <source>Dates are written YYYY-MM-DD, not &quot;%1&quot;.</source>
        <translation>日期格式为 YYYY-MM-DD，而不是“%1”。</translation>
    </message>
    <message>
        <source>Team database password</source>
        <translation>团队数据库密码</translation>
    </message>
    <message>
        <source>Password of %1 (kept in the OS keychain):</source>
        <translation>%1 的密码（保存在系统钥匙串中）：</translation>
    </message>
    <message>
        <source>Storing the password…</source>
        <translation>正在保存密码…</translation>
    </message>
    <message>
        <source>Listing the published runs of %1…</source>
        <translation>正在列出 %1 中已发布的运行…</translation>
    </message>
    <message>
        <source>The team database could not be read: %1</source>
        <translation>无法读取团队数据库：%1</translation>
    </message>
    <message>
        <source>No published run matches these filters.</source>
        <translation>没有符合这些筛选条件的已发布运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n published run(s). Select and Open to copy them into this project.</source>
        <translation>
            <numerusform>%n 个已发布的运行。选中后点击“打开”即可复制到本项目。</numerusform>
        </translation>
    </message>
    <message>
        <source>Copying run %1 into the project…</source>
        <translation>正在将运行 %1 复制到项目中…</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) copied into the project.</source>
        <translation>
            <numerusform>已将 %n 个运行复制到项目中。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not copied: %1</source>
        <translation>未复制：%1</translation>
    </message>
</context>
<context>
    <name>ServeScope::TracePreview</name>
    <message>
        <source>Requests over time</source>
        <translation>请求随时间分布</translation>
    </message>
    <message>
        <source>Input tokens (0–%1)</source>
        <translation>输入词元（0–%1）</translation>
    </message>
    <message>
        <source>Output tokens (0–%1)</source>
        <translation>输出词元（0–%1）</translation>
    </message>
    <message>
        <source>Name the trace file to see what it holds.</source>
        <translation>指定追踪文件以查看其内容。</translation>
    </message>
    <message>
        <source>Reading the trace…</source>
        <translation>正在读取追踪…</translation>
    </message>
    <message>
        <source>Mooncake trace</source>
        <translation>Mooncake 追踪</translation>
    </message>
    <message>
        <source>Azure trace</source>
        <translation>Azure 追踪</translation>
    </message>
    <message>
        <source>BurstGPT trace</source>
        <translation>BurstGPT 追踪</translation>
    </message>
    <message>
        <source>%1: %2 requests over %3 s (%4 req/s)</source>
        <translation>%1：%3 秒内 %2 个请求（%4 请求/秒）</translation>
    </message>
    <message>
        <source>input median %1, p90 %2 tokens</source>
        <translation>输入中位数 %1，p90 %2 个词元</translation>
    </message>
    <message>
        <source>output median %1, p90 %2 tokens</source>
        <translation>输出中位数 %1，p90 %2 个词元</translation>
    </message>
    <message>
        <source>%1% of prompt tokens in repeated blocks</source>
        <translation>%1% 的提示词元位于重复块中</translation>
    </message>
    <message>
        <source>%1 without tokens left out</source>
        <translation>略去 %1 个无词元请求</translation>
    </message>
</context>
<context>
    <name>ServeScope::VariantsTab</name>
    <message>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Variables a variant may change:
%1</source>
        <translation>变体可以修改的变量：
%1</translation>
    </message>
    <message>
        <source>Required when a variant changes more than one variable</source>
        <translation>变体修改多个变量时必须填写</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Make baseline</source>
        <translation>设为基线</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Differs from baseline</source>
        <translation>与基线的差异</translation>
    </message>
    <message>
        <source>Rename variant</source>
        <translation>重命名变体</translation>
    </message>
    <message>
        <source>Edit variant reason</source>
        <translation>编辑变体理由</translation>
    </message>
    <message>
        <source>Edit variant changes</source>
        <translation>编辑变体修改</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 → %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 → %3</translation>
    </message>
    <message>
        <source>Nothing: this variant runs the same configuration as the baseline.</source>
        <translation>无：此变体与基线运行相同的配置。</translation>
    </message>
    <message>
        <source>This is the baseline; other variants are compared with it.</source>
        <translation>这是基线，其他变体都与它比较。</translation>
    </message>
    <message>
        <source>Add variant</source>
        <translation>添加变体</translation>
    </message>
    <message>
        <source>Remove variant</source>
        <translation>删除变体</translation>
    </message>
    <message>
        <source>Change baseline</source>
        <translation>更改基线</translation>
    </message>
</context>
<context>
    <name>ServeScope::ViewMenu</name>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language changes when ServeScope starts again.</source>
        <translation>语言将在 ServeScope 下次启动时生效。</translation>
    </message>
    <message>
        <source>Layout reset.</source>
        <translation>布局已重置。</translation>
    </message>
</context>
<context>
    <name>ServeScope::WelcomePage</name>
    <message>
        <source>&lt;h2&gt;Welcome to ServeScope&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;欢迎使用 ServeScope&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Open the demo experiment</source>
        <translation>打开演示实验</translation>
    </message>
    <message>
        <source>New experiment</source>
        <translation>新建实验</translation>
    </message>
    <message>
        <source>Open project…</source>
        <translation>打开项目…</translation>
    </message>
    <message>
        <source>Import experiment file (JSON, TOML)…</source>
        <translation>导入实验文件（JSON、TOML）…</translation>
    </message>
    <message>
        <source>You can also drop experiment files onto this window.</source>
        <translation>也可以将实验文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>Design a benchmark of an OpenAI-compatible endpoint (vLLM, SGLang or a gateway), run it, and compare variants with reproducible numbers.&lt;br&gt;&lt;br&gt;New here? Open the demo: a concurrency sweep against the built-in simulator, vLLM against SGLang and one variant that changes &lt;tt&gt;max_num_seqs&lt;/tt&gt;. It needs no GPU and finishes in under a minute.</source>
        <translation>为兼容 OpenAI 的端点（vLLM、SGLang 或网关）设计基准测试、运行它，并用可复现的数字比较各个变体。&lt;br&gt;&lt;br&gt;第一次使用？打开演示：针对内置模拟器的并发扫描，对比 vLLM 与 SGLang，外加一个修改 &lt;tt&gt;max_num_seqs&lt;/tt&gt; 的变体。无需 GPU，不到一分钟即可完成。</translation>
    </message>
</context>
<context>
    <name>ServeScope::WindowPages</name>
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
</context>
</TS>
