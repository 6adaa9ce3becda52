var Be=Object.defineProperty;var Fe=Object.getOwnPropertyDescriptor;var c=(n,s,e,t)=>{for(var a=t>1?void 0:t?Fe(s,e):s,i=n.length-1,r;i>=0;i--)(r=n[i])&&(a=(t?r(s,e,a):r(a))||a);return t&&a&&Be(s,e,a),a};var X=globalThis,Q=X.ShadowRoot&&(X.ShadyCSS===void 0||X.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,oe=Symbol(),$e=new WeakMap,I=class{constructor(s,e,t){if(this._$cssResult$=!0,t!==oe)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=s,this.t=e}get styleSheet(){let s=this.o,e=this.t;if(Q&&s===void 0){let t=e!==void 0&&e.length===1;t&&(s=$e.get(e)),s===void 0&&((this.o=s=new CSSStyleSheet).replaceSync(this.cssText),t&&$e.set(e,s))}return s}toString(){return this.cssText}},_e=n=>new I(typeof n=="string"?n:n+"",void 0,oe),C=(n,...s)=>{let e=n.length===1?n[0]:s.reduce((t,a,i)=>t+(r=>{if(r._$cssResult$===!0)return r.cssText;if(typeof r=="number")return r;throw Error("Value passed to 'css' function must be a 'css' function result: "+r+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(a)+n[i+1],n[0]);return new I(e,n,oe)},we=(n,s)=>{if(Q)n.adoptedStyleSheets=s.map(e=>e instanceof CSSStyleSheet?e:e.styleSheet);else for(let e of s){let t=document.createElement("style"),a=X.litNonce;a!==void 0&&t.setAttribute("nonce",a),t.textContent=e.cssText,n.appendChild(t)}},le=Q?n=>n:n=>n instanceof CSSStyleSheet?(s=>{let e="";for(let t of s.cssRules)e+=t.cssText;return _e(e)})(n):n;var{is:Je,defineProperty:Ge,getOwnPropertyDescriptor:Ke,getOwnPropertyNames:Ve,getOwnPropertySymbols:Ye,getPrototypeOf:Ze}=Object,ee=globalThis,xe=ee.trustedTypes,Xe=xe?xe.emptyScript:"",Qe=ee.reactiveElementPolyfillSupport,W=(n,s)=>n,B={toAttribute(n,s){switch(s){case Boolean:n=n?Xe:null;break;case Object:case Array:n=n==null?n:JSON.stringify(n)}return n},fromAttribute(n,s){let e=n;switch(s){case Boolean:e=n!==null;break;case Number:e=n===null?null:Number(n);break;case Object:case Array:try{e=JSON.parse(n)}catch{e=null}}return e}},te=(n,s)=>!Je(n,s),ke={attribute:!0,type:String,converter:B,reflect:!1,useDefault:!1,hasChanged:te};Symbol.metadata??=Symbol("metadata"),ee.litPropertyMetadata??=new WeakMap;var R=class extends HTMLElement{static addInitializer(s){this._$Ei(),(this.l??=[]).push(s)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(s,e=ke){if(e.state&&(e.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(s)&&((e=Object.create(e)).wrapped=!0),this.elementProperties.set(s,e),!e.noAccessor){let t=Symbol(),a=this.getPropertyDescriptor(s,t,e);a!==void 0&&Ge(this.prototype,s,a)}}static getPropertyDescriptor(s,e,t){let{get:a,set:i}=Ke(this.prototype,s)??{get(){return this[e]},set(r){this[e]=r}};return{get:a,set(r){let h=a?.call(this);i?.call(this,r),this.requestUpdate(s,h,t)},configurable:!0,enumerable:!0}}static getPropertyOptions(s){return this.elementProperties.get(s)??ke}static _$Ei(){if(this.hasOwnProperty(W("elementProperties")))return;let s=Ze(this);s.finalize(),s.l!==void 0&&(this.l=[...s.l]),this.elementProperties=new Map(s.elementProperties)}static finalize(){if(this.hasOwnProperty(W("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(W("properties"))){let e=this.properties,t=[...Ve(e),...Ye(e)];for(let a of t)this.createProperty(a,e[a])}let s=this[Symbol.metadata];if(s!==null){let e=litPropertyMetadata.get(s);if(e!==void 0)for(let[t,a]of e)this.elementProperties.set(t,a)}this._$Eh=new Map;for(let[e,t]of this.elementProperties){let a=this._$Eu(e,t);a!==void 0&&this._$Eh.set(a,e)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(s){let e=[];if(Array.isArray(s)){let t=new Set(s.flat(1/0).reverse());for(let a of t)e.unshift(le(a))}else s!==void 0&&e.push(le(s));return e}static _$Eu(s,e){let t=e.attribute;return t===!1?void 0:typeof t=="string"?t:typeof s=="string"?s.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(s=>this.enableUpdating=s),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(s=>s(this))}addController(s){(this._$EO??=new Set).add(s),this.renderRoot!==void 0&&this.isConnected&&s.hostConnected?.()}removeController(s){this._$EO?.delete(s)}_$E_(){let s=new Map,e=this.constructor.elementProperties;for(let t of e.keys())this.hasOwnProperty(t)&&(s.set(t,this[t]),delete this[t]);s.size>0&&(this._$Ep=s)}createRenderRoot(){let s=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return we(s,this.constructor.elementStyles),s}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(s=>s.hostConnected?.())}enableUpdating(s){}disconnectedCallback(){this._$EO?.forEach(s=>s.hostDisconnected?.())}attributeChangedCallback(s,e,t){this._$AK(s,t)}_$ET(s,e){let t=this.constructor.elementProperties.get(s),a=this.constructor._$Eu(s,t);if(a!==void 0&&t.reflect===!0){let i=(t.converter?.toAttribute!==void 0?t.converter:B).toAttribute(e,t.type);this._$Em=s,i==null?this.removeAttribute(a):this.setAttribute(a,i),this._$Em=null}}_$AK(s,e){let t=this.constructor,a=t._$Eh.get(s);if(a!==void 0&&this._$Em!==a){let i=t.getPropertyOptions(a),r=typeof i.converter=="function"?{fromAttribute:i.converter}:i.converter?.fromAttribute!==void 0?i.converter:B;this._$Em=a;let h=r.fromAttribute(e,i.type);this[a]=h??this._$Ej?.get(a)??h,this._$Em=null}}requestUpdate(s,e,t,a=!1,i){if(s!==void 0){let r=this.constructor;if(a===!1&&(i=this[s]),t??=r.getPropertyOptions(s),!((t.hasChanged??te)(i,e)||t.useDefault&&t.reflect&&i===this._$Ej?.get(s)&&!this.hasAttribute(r._$Eu(s,t))))return;this.C(s,e,t)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(s,e,{useDefault:t,reflect:a,wrapped:i},r){t&&!(this._$Ej??=new Map).has(s)&&(this._$Ej.set(s,r??e??this[s]),i!==!0||r!==void 0)||(this._$AL.has(s)||(this.hasUpdated||t||(e=void 0),this._$AL.set(s,e)),a===!0&&this._$Em!==s&&(this._$Eq??=new Set).add(s))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(e){Promise.reject(e)}let s=this.scheduleUpdate();return s!=null&&await s,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[a,i]of this._$Ep)this[a]=i;this._$Ep=void 0}let t=this.constructor.elementProperties;if(t.size>0)for(let[a,i]of t){let{wrapped:r}=i,h=this[a];r!==!0||this._$AL.has(a)||h===void 0||this.C(a,void 0,i,h)}}let s=!1,e=this._$AL;try{s=this.shouldUpdate(e),s?(this.willUpdate(e),this._$EO?.forEach(t=>t.hostUpdate?.()),this.update(e)):this._$EM()}catch(t){throw s=!1,this._$EM(),t}s&&this._$AE(e)}willUpdate(s){}_$AE(s){this._$EO?.forEach(e=>e.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(s)),this.updated(s)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(s){return!0}update(s){this._$Eq&&=this._$Eq.forEach(e=>this._$ET(e,this[e])),this._$EM()}updated(s){}firstUpdated(s){}};R.elementStyles=[],R.shadowRootOptions={mode:"open"},R[W("elementProperties")]=new Map,R[W("finalized")]=new Map,Qe?.({ReactiveElement:R}),(ee.reactiveElementVersions??=[]).push("2.1.2");var ge=globalThis,qe=n=>n,se=ge.trustedTypes,Ee=se?se.createPolicy("lit-html",{createHTML:n=>n}):void 0,Me="$lit$",T=`lit$${Math.random().toFixed(9).slice(2)}$`,Ne="?"+T,et=`<${Ne}>`,j=document,J=()=>j.createComment(""),G=n=>n===null||typeof n!="object"&&typeof n!="function",ve=Array.isArray,tt=n=>ve(n)||typeof n?.[Symbol.iterator]=="function",de=`[ 	
\f\r]`,F=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,Se=/-->/g,Ae=/>/g,L=RegExp(`>|${de}(?:([^\\s"'>=/]+)(${de}*=${de}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),Pe=/'/g,Re=/"/g,He=/^(?:script|style|textarea|title)$/i,ye=n=>(s,...e)=>({_$litType$:n,strings:s,values:e}),o=ye(1),kt=ye(2),qt=ye(3),U=Symbol.for("lit-noChange"),l=Symbol.for("lit-nothing"),Te=new WeakMap,O=j.createTreeWalker(j,129);function Ce(n,s){if(!ve(n)||!n.hasOwnProperty("raw"))throw Error("invalid template strings array");return Ee!==void 0?Ee.createHTML(s):s}var st=(n,s)=>{let e=n.length-1,t=[],a,i=s===2?"<svg>":s===3?"<math>":"",r=F;for(let h=0;h<e;h++){let d=n[h],u,g,m=-1,y=0;for(;y<d.length&&(r.lastIndex=y,g=r.exec(d),g!==null);)y=r.lastIndex,r===F?g[1]==="!--"?r=Se:g[1]!==void 0?r=Ae:g[2]!==void 0?(He.test(g[2])&&(a=RegExp("</"+g[2],"g")),r=L):g[3]!==void 0&&(r=L):r===L?g[0]===">"?(r=a??F,m=-1):g[1]===void 0?m=-2:(m=r.lastIndex-g[2].length,u=g[1],r=g[3]===void 0?L:g[3]==='"'?Re:Pe):r===Re||r===Pe?r=L:r===Se||r===Ae?r=F:(r=L,a=void 0);let x=r===L&&n[h+1].startsWith("/>")?" ":"";i+=r===F?d+et:m>=0?(t.push(u),d.slice(0,m)+Me+d.slice(m)+T+x):d+T+(m===-2?h:x)}return[Ce(n,i+(n[e]||"<?>")+(s===2?"</svg>":s===3?"</math>":"")),t]},K=class n{constructor({strings:s,_$litType$:e},t){let a;this.parts=[];let i=0,r=0,h=s.length-1,d=this.parts,[u,g]=st(s,e);if(this.el=n.createElement(u,t),O.currentNode=this.el.content,e===2||e===3){let m=this.el.content.firstChild;m.replaceWith(...m.childNodes)}for(;(a=O.nextNode())!==null&&d.length<h;){if(a.nodeType===1){if(a.hasAttributes())for(let m of a.getAttributeNames())if(m.endsWith(Me)){let y=g[r++],x=a.getAttribute(m).split(T),Z=/([.?@])?(.*)/.exec(y);d.push({type:1,index:i,name:Z[2],strings:x,ctor:Z[1]==="."?pe:Z[1]==="?"?he:Z[1]==="@"?ue:D}),a.removeAttribute(m)}else m.startsWith(T)&&(d.push({type:6,index:i}),a.removeAttribute(m));if(He.test(a.tagName)){let m=a.textContent.split(T),y=m.length-1;if(y>0){a.textContent=se?se.emptyScript:"";for(let x=0;x<y;x++)a.append(m[x],J()),O.nextNode(),d.push({type:2,index:++i});a.append(m[y],J())}}}else if(a.nodeType===8)if(a.data===Ne)d.push({type:2,index:i});else{let m=-1;for(;(m=a.data.indexOf(T,m+1))!==-1;)d.push({type:7,index:i}),m+=T.length-1}i++}}static createElement(s,e){let t=j.createElement("template");return t.innerHTML=s,t}};function z(n,s,e=n,t){if(s===U)return s;let a=t!==void 0?e._$Co?.[t]:e._$Cl,i=G(s)?void 0:s._$litDirective$;return a?.constructor!==i&&(a?._$AO?.(!1),i===void 0?a=void 0:(a=new i(n),a._$AT(n,e,t)),t!==void 0?(e._$Co??=[])[t]=a:e._$Cl=a),a!==void 0&&(s=z(n,a._$AS(n,s.values),a,t)),s}var ce=class{constructor(s,e){this._$AV=[],this._$AN=void 0,this._$AD=s,this._$AM=e}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(s){let{el:{content:e},parts:t}=this._$AD,a=(s?.creationScope??j).importNode(e,!0);O.currentNode=a;let i=O.nextNode(),r=0,h=0,d=t[0];for(;d!==void 0;){if(r===d.index){let u;d.type===2?u=new V(i,i.nextSibling,this,s):d.type===1?u=new d.ctor(i,d.name,d.strings,this,s):d.type===6&&(u=new me(i,this,s)),this._$AV.push(u),d=t[++h]}r!==d?.index&&(i=O.nextNode(),r++)}return O.currentNode=j,a}p(s){let e=0;for(let t of this._$AV)t!==void 0&&(t.strings!==void 0?(t._$AI(s,t,e),e+=t.strings.length-2):t._$AI(s[e])),e++}},V=class n{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(s,e,t,a){this.type=2,this._$AH=l,this._$AN=void 0,this._$AA=s,this._$AB=e,this._$AM=t,this.options=a,this._$Cv=a?.isConnected??!0}get parentNode(){let s=this._$AA.parentNode,e=this._$AM;return e!==void 0&&s?.nodeType===11&&(s=e.parentNode),s}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(s,e=this){s=z(this,s,e),G(s)?s===l||s==null||s===""?(this._$AH!==l&&this._$AR(),this._$AH=l):s!==this._$AH&&s!==U&&this._(s):s._$litType$!==void 0?this.$(s):s.nodeType!==void 0?this.T(s):tt(s)?this.k(s):this._(s)}O(s){return this._$AA.parentNode.insertBefore(s,this._$AB)}T(s){this._$AH!==s&&(this._$AR(),this._$AH=this.O(s))}_(s){this._$AH!==l&&G(this._$AH)?this._$AA.nextSibling.data=s:this.T(j.createTextNode(s)),this._$AH=s}$(s){let{values:e,_$litType$:t}=s,a=typeof t=="number"?this._$AC(s):(t.el===void 0&&(t.el=K.createElement(Ce(t.h,t.h[0]),this.options)),t);if(this._$AH?._$AD===a)this._$AH.p(e);else{let i=new ce(a,this),r=i.u(this.options);i.p(e),this.T(r),this._$AH=i}}_$AC(s){let e=Te.get(s.strings);return e===void 0&&Te.set(s.strings,e=new K(s)),e}k(s){ve(this._$AH)||(this._$AH=[],this._$AR());let e=this._$AH,t,a=0;for(let i of s)a===e.length?e.push(t=new n(this.O(J()),this.O(J()),this,this.options)):t=e[a],t._$AI(i),a++;a<e.length&&(this._$AR(t&&t._$AB.nextSibling,a),e.length=a)}_$AR(s=this._$AA.nextSibling,e){for(this._$AP?.(!1,!0,e);s!==this._$AB;){let t=qe(s).nextSibling;qe(s).remove(),s=t}}setConnected(s){this._$AM===void 0&&(this._$Cv=s,this._$AP?.(s))}},D=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(s,e,t,a,i){this.type=1,this._$AH=l,this._$AN=void 0,this.element=s,this.name=e,this._$AM=a,this.options=i,t.length>2||t[0]!==""||t[1]!==""?(this._$AH=Array(t.length-1).fill(new String),this.strings=t):this._$AH=l}_$AI(s,e=this,t,a){let i=this.strings,r=!1;if(i===void 0)s=z(this,s,e,0),r=!G(s)||s!==this._$AH&&s!==U,r&&(this._$AH=s);else{let h=s,d,u;for(s=i[0],d=0;d<i.length-1;d++)u=z(this,h[t+d],e,d),u===U&&(u=this._$AH[d]),r||=!G(u)||u!==this._$AH[d],u===l?s=l:s!==l&&(s+=(u??"")+i[d+1]),this._$AH[d]=u}r&&!a&&this.j(s)}j(s){s===l?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,s??"")}},pe=class extends D{constructor(){super(...arguments),this.type=3}j(s){this.element[this.name]=s===l?void 0:s}},he=class extends D{constructor(){super(...arguments),this.type=4}j(s){this.element.toggleAttribute(this.name,!!s&&s!==l)}},ue=class extends D{constructor(s,e,t,a,i){super(s,e,t,a,i),this.type=5}_$AI(s,e=this){if((s=z(this,s,e,0)??l)===U)return;let t=this._$AH,a=s===l&&t!==l||s.capture!==t.capture||s.once!==t.once||s.passive!==t.passive,i=s!==l&&(t===l||a);a&&this.element.removeEventListener(this.name,this,t),i&&this.element.addEventListener(this.name,this,s),this._$AH=s}handleEvent(s){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,s):this._$AH.handleEvent(s)}},me=class{constructor(s,e,t){this.element=s,this.type=6,this._$AN=void 0,this._$AM=e,this.options=t}get _$AU(){return this._$AM._$AU}_$AI(s){z(this,s)}};var at=ge.litHtmlPolyfillSupport;at?.(K,V),(ge.litHtmlVersions??=[]).push("3.3.3");var Le=(n,s,e)=>{let t=e?.renderBefore??s,a=t._$litPart$;if(a===void 0){let i=e?.renderBefore??null;t._$litPart$=a=new V(s.insertBefore(J(),i),i,void 0,e??{})}return a._$AI(n),a};var be=globalThis,E=class extends R{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let s=super.createRenderRoot();return this.renderOptions.renderBefore??=s.firstChild,s}update(s){let e=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(s),this._$Do=Le(e,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return U}};E._$litElement$=!0,E.finalized=!0,be.litElementHydrateSupport?.({LitElement:E});var it=be.litElementPolyfillSupport;it?.({LitElement:E});(be.litElementVersions??=[]).push("4.2.2");var rt={attribute:!0,type:String,converter:B,reflect:!1,hasChanged:te},nt=(n=rt,s,e)=>{let{kind:t,metadata:a}=e,i=globalThis.litPropertyMetadata.get(a);if(i===void 0&&globalThis.litPropertyMetadata.set(a,i=new Map),t==="setter"&&((n=Object.create(n)).wrapped=!0),i.set(e.name,n),t==="accessor"){let{name:r}=e;return{set(h){let d=s.get.call(this);s.set.call(this,h),this.requestUpdate(r,d,n,!0,h)},init(h){return h!==void 0&&this.C(r,void 0,n,h),h}}}if(t==="setter"){let{name:r}=e;return function(h){let d=this[r];s.call(this,h),this.requestUpdate(r,d,n,!0,h)}}throw Error("Unsupported decorator location: "+t)};function S(n){return(s,e)=>typeof e=="object"?nt(n,s,e):((t,a,i)=>{let r=a.hasOwnProperty(i);return a.constructor.createProperty(i,t),r?Object.getOwnPropertyDescriptor(a,i):void 0})(n,s,e)}function p(n){return S({...n,state:!0,attribute:!1})}var ie="context_retrieval";function v(n,s,e={}){return n.callWS({type:`${ie}/${s}`,...e})}function Oe(n,s,e){let t=s??{};if(t.translation_key){let a=n.localize(`component.${t.translation_domain||ie}.exceptions.${t.translation_key}.message`,t.translation_placeholders||{});if(a)return a}return t.message||e}function je(n){let s=n?.translation_placeholders?.position,e=s===void 0?NaN:Number(s);return Number.isFinite(e)&&e>=1?e:null}var A=class{constructor(){this.counter=0}async run(s){let e=++this.counter,t=await s();return{current:e===this.counter,value:t}}cancel(){this.counter++}};function M(n,s){let e,t=(...a)=>{e!==void 0&&clearTimeout(e),e=setTimeout(()=>{e=void 0,n(...a)},s)};return t.cancel=()=>{e!==void 0&&clearTimeout(e),e=void 0},t}var fe={"panel.title":"Context","panel.menu":"Menu","tab.try":"Try it","tab.views":"Views","tab.questions":"Questions","tab.search":"Search","tab.rename":"Rename","tab.health":"Health","common.working":"Working…","common.language":"Language","common.entity":"Entity","common.area":"Area","common.score":"Score","common.state":"State","common.delete":"Delete","common.cancel":"Cancel","common.edit":"Edit","common.save":"Save","common.refresh":"Refresh","error.unknown":"Something went wrong.","language.auto":"Detect","language.en":"English","language.zh":"Chinese","language.de":"German","language.es":"Spanish","language.fr":"French","language.ru":"Russian","try.heading":"Try an utterance","try.intro":"See what the assistant would be told for a sentence, and why: how it was read, which devices scored what, what was filtered out, and the context it gets.","try.utterance":"What would you say?","try.placeholder":"turn off all the lights except the bedroom","try.run":"Try it","try.keep_conversation":'Remember earlier tries (for "it" and answers to a question)',"try.new_conversation":"Start over","try.tokens_instead":"{ours} tokens instead of {assist}","try.tokens_only":"{ours} tokens","try.tokens_note":"The context below against Assist's full prompt, which lists all {entities} exposed entities.","try.detected":"Language {language} · {ms} ms","try.yaml_heading":"What the assistant receives","try.tokens":"{count} tokens","try.yaml_empty":"Nothing is handed over: no device was selected.","try.command":"Command","try.command_n":"Command {n}","try.action":"Action","try.quantifier":"How many","quantifier.one":"one","quantifier.all":"all","quantifier.any":"any","quantifier.except":"all except","try.scope_in":"In","try.scope_out":"Not in","try.types":"Type","try.types_out":"Except type","try.mentions":"Named","try.mentions_out":"Except","try.labels":"Labels","try.states":"States","try.references":"Refers to","try.confidence":"Confidence","try.scope_removed":"Rooms and floors left out {count} entities.","try.excluded":"The exception removed {count}.","try.capability_removed":"The capability check removed {count}: {names}","try.capability_none":"The capability check removed nothing.","try.capability_hard":"strict check","try.capability_soft":"lenient check: the reading is not certain","try.breakdown":"Why this score","try.reasons":"Reasons","try.reason.name":"its {field} was said: “{said}”","try.reason.keyword":"“{said}” is close to its {field} “{matched}” ({score})","try.reason.vector":"similar letters ({score})","try.reason.embedding":"similar meaning ({score})","try.reason.type":"{said} in the place asked for","try.reason.state":"in the state asked about: {said}","try.reason.last_turn":"what the last turn was about","try.reason.all_capable":"can do this, in the place asked for","try.reason.clarified":"your answer to the question","try.reason.confirmed":"you confirmed it","try.reason.room_named":"in the room named earlier","try.reason.satellite_room":"in the voice satellite's room","try.reason.words_fit":"the words “{said}” fit it best","try.reason_field.name":"name","try.reason_field.alias":"alias","try.reason_field.numbered":"numbered name","try.reason_field.inflected":"name, in another form","try.reason_field.device":"device name","try.fusion":"keyword {keyword}×{kw} + vector {vector}×{vw} = {total}","score.keyword":"keyword","score.semantic":"semantic","score.recency":"recent","try.gating_ask":"Too close to call; it would ask:","try.gating_selected":"Selected {count}:","try.gating_nothing":"Nothing matched.","views.heading":"View rules","views.new":"New rule","views.intro":'A view is a named group of devices from labels and places, like "christmas OR balcony". Published views become sensors and can be named when you speak.',"views.empty":"No view rules yet.","views.members":"{count} members","views.edit":'Edit "{name}"',"views.create":"New view rule","views.name":"Name","views.rule":"Rule","views.rule_placeholder":"christmas OR (area:kitchen AND domain:light)","views.rule_help":"Labels and area:, floor:, domain:, device_class: tags, joined with AND / OR and parentheses. The preview follows your typing.","views.publish":"Publish","views.confirm_delete":'Delete "{name}" and its sensor?',"views.position":"at character {position}","views.total_hits":"Total","views.entity_hits":"Entities","views.device_hits":"Devices","views.compiled_by":"Read by","views.source.deterministic":"the rule parser","views.source.llm":"the language model","views.rewrite_note":"Rewritten","views.unresolved":"Not found in this home: {tags}","views.tree":"The rule","views.json":"Canonical JSON","views.samples":"Examples","views.no_samples":"The rule matches nothing yet.","views.op_or":"any of","views.op_and":"all of","views.op_not":"none of","views.revisions":"Revisions","views.no_revisions":"No revisions kept.","views.current":"published","views.rollback":"Roll back to this","views.published":'"{name}" is published with {count} members.',"views.rolled_back":'"{name}" is back to the earlier revision.',"views.deleted":'"{name}" was deleted.',"questions.heading":"Ask the home","questions.intro":'Questions about states ("which windows are open upstairs?") become a plan of filters that is saved and reused.',"questions.question":"Question","questions.placeholder":"which lights are on?","questions.ask":"Ask","questions.suggestions":"Asked before:","questions.source":"Answered from","questions.source.exact":"the cache (same question)","questions.source.similar":"the cache (a similar question)","questions.source.full_text":"the cache (full-text match)","questions.source.deterministic":"a new plan (rules)","questions.source.llm":"a new plan (language model)","questions.source.command":"nothing: an order, not a question (not saved)","questions.source.none":"nothing: not understood","questions.similarity":"Similarity","questions.rows":"Rows","questions.plan":"The plan","questions.raw":"Rows","questions.everything":"every exposed entity","questions.aggregate":"Answer","questions.limit":"at most {limit} rows","aggregate.list":"list","aggregate.count":"count","aggregate.min":"lowest","aggregate.max":"highest","aggregate.avg":"average","aggregate.sum":"sum","field.entity_id":"entity","field.domain":"domain","field.device_class":"device class","field.type":"type","field.area":"area","field.floor":"floor","field.label":"label","field.name":"name","field.state":"state","field.status":"status","field.attribute":"attribute","questions.saved":"Saved plans ({count})","questions.none_saved":"No saved plans yet: ask something.","questions.used":"used {count}×","questions.valid":"valid","questions.invalid":"invalid","questions.last_result":"last answer","questions.n_rows":"{count} rows","questions.mark_invalid":"Mark invalid","questions.mark_valid":"Mark valid","plan.type.air_conditioner":"air conditioner","plan.type.air_purifier":"air purifier","plan.type.air_quality":"air quality","plan.type.automation":"automation","plan.type.awning":"awning","plan.type.battery":"battery","plan.type.battery_charging":"battery charging","plan.type.blind":"blind","plan.type.button":"button","plan.type.camera":"camera","plan.type.carbon_dioxide":"carbon dioxide","plan.type.carbon_monoxide":"carbon monoxide","plan.type.climate":"climate","plan.type.cold":"cold","plan.type.connectivity":"connectivity","plan.type.cover":"cover","plan.type.curtain":"curtain","plan.type.door":"door","plan.type.energy":"energy","plan.type.fan":"fan","plan.type.garage_door":"garage door","plan.type.gas":"gas","plan.type.gate":"gate","plan.type.heat":"heat","plan.type.heater":"heater","plan.type.humidifier":"humidifier","plan.type.dehumidifier":"dehumidifier","plan.type.humidity":"humidity","plan.type.illuminance":"illuminance","plan.type.lawn_mower":"lawn mower","plan.type.light":"light","plan.type.lock":"lock","plan.type.media_player":"media player","plan.type.moisture":"leak","plan.type.motion":"motion","plan.type.occupancy":"occupancy","plan.type.opening":"opening","plan.type.outlet":"outlet","plan.type.person":"person","plan.type.plug":"plug","plan.type.pm10":"PM10","plan.type.pm25":"PM2.5","plan.type.power":"power","plan.type.power_sensor":"power sensor","plan.type.presence":"presence","plan.type.pressure":"pressure","plan.type.problem":"problem","plan.type.running":"running","plan.type.safety":"safety","plan.type.scene":"scene","plan.type.script":"script","plan.type.sensor":"sensor","plan.type.shade":"shade","plan.type.shutter":"shutter","plan.type.siren":"siren","plan.type.smoke":"smoke","plan.type.sound":"sound","plan.type.speaker":"speaker","plan.type.switch":"switch","plan.type.tamper":"tamper","plan.type.temperature":"temperature","plan.type.temperature_sensor":"temperature sensor","plan.type.tv":"TV","plan.type.update":"update","plan.type.vacuum":"vacuum","plan.type.valve":"valve","plan.type.vibration":"vibration","plan.type.water_heater":"water heater","plan.type.weather":"weather","plan.type.window":"window","plan.status.on":"on","plan.status.off":"off","plan.status.open":"open","plan.status.closed":"closed","plan.status.locked":"locked","plan.status.unlocked":"unlocked","plan.status.playing":"playing","plan.status.paused":"paused","plan.status.unavailable":"unavailable","plan.status.home":"home","plan.status.away":"away","plan.status.detected":"detected","plan.status.clear":"clear","plan.status.charging":"charging","plan.status.armed":"armed","plan.status.disarmed":"disarmed","plan.status.triggered":"triggered","plan.op.eq":"is","plan.op.ne":"is not","plan.op.in":"is one of","plan.op.gt":"above","plan.op.lt":"below","plan.op.contains":"contains","plan.domain.light":"light","plan.domain.switch":"switch","plan.domain.binary_sensor":"binary sensor","plan.domain.sensor":"sensor","plan.domain.lock":"lock","plan.domain.cover":"cover","plan.domain.climate":"climate","plan.domain.fan":"fan","plan.domain.media_player":"media player","plan.domain.vacuum":"vacuum","plan.domain.humidifier":"humidifier","plan.domain.water_heater":"water heater","plan.domain.scene":"scene","plan.domain.script":"script","plan.domain.valve":"valve","plan.domain.alarm_control_panel":"alarm panel","plan.domain.person":"person","plan.domain.camera":"camera","plan.domain.siren":"siren","questions.plan_error.not_json":"The plan is not valid JSON.","questions.plan_error.not_object":"A plan must be an object {…}.","questions.plan_error.unknown_field":"Unknown field at {path}.","questions.plan_error.bad_version":"Unknown plan version ({path}).","questions.plan_error.bad_where":"“where” must be a non-empty list of clauses, each a list of filters ({path}).","questions.plan_error.too_big":"The plan is too big at {path}.","questions.plan_error.bad_select":"“select” must be a short list of attribute names.","questions.plan_error.bad_aggregate":"Unknown answer kind (aggregate): use list, count, min, max, avg or sum.","questions.plan_error.bad_measure":"“measure” must be “state” or “attribute:<name>”.","questions.plan_error.bad_order":"Unknown order at {path}.","questions.plan_error.bad_limit":"The row limit must be a whole number from 1 to 500.","questions.plan_error.bad_status":"Unknown status at {path}.","questions.plan_error.bad_about":"“about” must hold short texts ({path}).","questions.plan_error.bad_filter":"A filter is not valid at {path}.","questions.plan_error.unknown_op":"Unknown operator at {path}.","questions.plan_error.bad_op":"This operator does not apply to that field ({path}).","questions.plan_error.bad_value":"The value at {path} is not valid for its operator.","questions.plan_error.bad_type":"Unknown device type at {path}.","plan.measure.state":"the state","plan.measure.attribute":"attribute {name}","questions.expect":"asks whether it is {status}","questions.value_separator":", ","questions.edit_help":"Edit the plan as JSON; it is checked before it is saved.","questions.json_ok":"JSON is well-formed; the server checks the rest when you save.","search.heading":"Search entities","search.query":"Search","search.placeholder":"ceiling light","search.mode":"Mode","search.mode.hybrid":"Hybrid","search.mode.keyword":"Keyword","search.mode.semantic":"Semantic","search.min_score":"Minimum score {value}","search.searching":"Searching…","search.failed":"The search failed.","search.idle":"Type to search the exposed entities.","search.empty":"No results.","search.empty_hint":"Nothing scores above the minimum. Try other words or a lower minimum score.","search.count":"{total} results · {ms} ms","search.degraded":"Semantic search is not available ({code}); results come from {fallback}.","search.fallback.keyword":"keywords only","search.fallback.hashing":"the built-in vectors","search.field.alias":"alias","search.field.device":"device","search.field.area":"area","search.field.name":"name","search.prev":"Previous","search.next":"Next","search.page":"Page {page} of {pages}","rename.heading":"Bulk rename","rename.intro":"Find and replace in the names and aliases of exposed entities. A snapshot is saved before anything changes, so it can be rolled back.","rename.find":"Find","rename.replace":"Replace with","rename.target":"In","rename.target.names":"names","rename.target.aliases":"aliases","rename.target.both":"names and aliases","rename.match_case":"Match case","rename.whole_word":"Whole words","rename.regex":"Regular expression","rename.preview":"{entities} entities, {matches} matches","rename.apply":"Apply","rename.truncated":"Too many changes to apply at once; narrow the search.","rename.keep":"Rename","rename.room":"Room","rename.field":"Field","rename.field.name":"name","rename.field.alias":"alias","rename.before":"Now","rename.after":"Then","rename.nothing":"Nothing would change.","rename.conflict.same_name":"same name as another","rename.conflict.empty_name":"skipped: the name would be empty","rename.conflict.name_too_long":"skipped: the name would be too long","rename.conflict.empty_alias":"skipped: the alias would be empty","rename.conflict.alias_too_long":"skipped: the alias would be too long","rename.conflict.duplicate_alias":"skipped: the entity has this alias already","rename.applied":"Renamed {count} entities. A snapshot was saved.","rename.rolled_back":"Restored {count} entities.","rename.snapshots":"Snapshots","rename.no_snapshots":"No renames yet.","rename.snapshot":'"{find}" · {count} entities',"rename.rollback":"Roll back","health.heading":"Health","health.index":"Index","health.state":"State","health.state.ready":"ready","health.state.rebuilding":"rebuilding now","health.state.empty":"not built yet","health.entities":"Exposed entities","health.areas":"Areas / floors","health.languages":"Languages","health.last_build":"Last rebuild","health.build_seconds":"{seconds} s · {builds} builds","health.degradations":"Degradations","health.no_degradations":"Everything works as configured.","health.degradation.issue":"Repair issue","health.degradation.embedding":"Embedding service","health.degradation.views":"View rule store","health.degradation.questions":"Question cache","health.rates":"Since Home Assistant started","health.compile_success":"Rule compile success","health.llm_fallback":"Language model fallback","health.preview_p95":"Preview p95","health.error_rate":"Failed questions and compiles","health.plan_cache_hit":"Plan cache hits","health.retrieval_p95":"Retrieval p95","health.question_p95":"Question p95","health.backpressured":"Calls told to retry","health.counts":"{compiles} compiles, {previews} previews, {questions} questions, {retrievals} recent retrievals.","health.embeddings_on":"Embedding service: {kind}, {vectors} vectors.","health.embeddings_off":"Embedding service: none (built-in vectors)."};var Ue={"panel.title":"上下文","panel.menu":"菜单","tab.try":"试一试","tab.views":"视图","tab.questions":"提问","tab.search":"搜索","tab.rename":"重命名","tab.health":"状态","common.working":"处理中…","common.language":"语言","common.entity":"实体","common.area":"区域","common.score":"得分","common.state":"状态","common.delete":"删除","common.cancel":"取消","common.edit":"编辑","common.save":"保存","common.refresh":"刷新","error.unknown":"出了点问题。","language.auto":"自动识别","language.en":"英语","language.zh":"中文","language.de":"德语","language.es":"西班牙语","language.fr":"法语","language.ru":"俄语","try.heading":"试一句话","try.intro":"看看一句话会让助手收到什么，以及原因：怎样理解这句话、各设备的得分、被过滤掉的内容，以及交给助手的上下文。","try.utterance":"你会怎么说？","try.placeholder":"关掉除了卧室以外的所有灯","try.run":"试一试","try.keep_conversation":"记住之前的尝试（用于“它”和回答追问）","try.new_conversation":"重新开始","try.tokens_instead":"{ours} 个 token，而不是 {assist} 个","try.tokens_only":"{ours} 个 token","try.tokens_note":"下面的上下文与 Assist 的完整提示词相比，后者列出全部 {entities} 个已公开实体。","try.detected":"语言 {language} · {ms} 毫秒","try.yaml_heading":"助手收到的内容","try.tokens":"{count} 个 token","try.yaml_empty":"没有交给助手任何内容：没有选中设备。","try.command":"指令","try.command_n":"指令 {n}","try.action":"动作","try.quantifier":"数量","quantifier.one":"一个","quantifier.all":"全部","quantifier.any":"任意","quantifier.except":"除外的全部","try.scope_in":"在","try.scope_out":"不在","try.types":"类型","try.types_out":"排除类型","try.mentions":"提到","try.mentions_out":"排除","try.labels":"标签","try.states":"状态","try.references":"指代","try.confidence":"置信度","try.scope_removed":"房间和楼层筛掉了 {count} 个实体。","try.excluded":"排除条件去掉了 {count} 个。","try.capability_removed":"能力检查去掉了 {count} 个：{names}","try.capability_none":"能力检查没有去掉任何实体。","try.capability_hard":"严格检查","try.capability_soft":"宽松检查：理解还不确定","try.breakdown":"得分构成","try.reasons":"原因","try.reason.name":"说到了它的{field}：“{said}”","try.reason.keyword":"“{said}”接近它的{field}“{matched}”（{score}）","try.reason.vector":"字面相似（{score}）","try.reason.embedding":"语义相似（{score}）","try.reason.type":"所说范围内的{said}","try.reason.state":"处于所问的状态：{said}","try.reason.last_turn":"上一轮说的就是它","try.reason.all_capable":"所说范围内能做这件事","try.reason.clarified":"你对提问的回答","try.reason.confirmed":"你已确认","try.reason.room_named":"在前面说到的房间里","try.reason.satellite_room":"在语音助手设备所在的房间","try.reason.words_fit":"“{said}”最符合它","try.reason_field.name":"名称","try.reason_field.alias":"别名","try.reason_field.numbered":"编号名称","try.reason_field.inflected":"名称（另一种说法）","try.reason_field.device":"设备名称","try.fusion":"关键词 {keyword}×{kw} + 向量 {vector}×{vw} = {total}","score.keyword":"关键词","score.semantic":"语义","score.recency":"最近","try.gating_ask":"候选太接近，会反问：","try.gating_selected":"选中 {count} 个：","try.gating_nothing":"没有匹配的设备。","views.heading":"视图规则","views.new":"新建规则","views.intro":"视图是按标签和位置组成的一组设备，例如“圣诞装饰 或 阳台”。发布后的视图会成为传感器，也可以在说话时直接提到。","views.empty":"还没有视图规则。","views.members":"{count} 个成员","views.edit":"编辑“{name}”","views.create":"新建视图规则","views.name":"名称","views.rule":"规则","views.rule_placeholder":"圣诞装饰 或 (area:厨房 且 domain:light)","views.rule_help":"标签以及 area:、floor:、domain:、device_class: 标记，用 且 / 或（AND / OR）和括号连接。预览会随输入更新。","views.publish":"发布","views.confirm_delete":"删除“{name}”及其传感器？","views.position":"第 {position} 个字符处","views.total_hits":"总计","views.entity_hits":"实体","views.device_hits":"设备","views.compiled_by":"解析方式","views.source.deterministic":"规则解析器","views.source.llm":"语言模型","views.rewrite_note":"已改写","views.unresolved":"这个家里找不到：{tags}","views.tree":"规则结构","views.json":"规范 JSON","views.samples":"示例","views.no_samples":"规则目前没有匹配任何实体。","views.op_or":"任一满足","views.op_and":"全部满足","views.op_not":"都不满足","views.revisions":"历史版本","views.no_revisions":"没有保留的版本。","views.current":"当前发布","views.rollback":"回滚到此版本","views.published":"“{name}”已发布，共 {count} 个成员。","views.rolled_back":"“{name}”已回滚到之前的版本。","views.deleted":"“{name}”已删除。","questions.heading":"问问家里","questions.intro":"关于状态的问题（如“楼上哪些窗户开着？”）会变成由筛选条件组成的查询计划，保存后可重复使用。","questions.question":"问题","questions.placeholder":"哪些灯开着？","questions.ask":"提问","questions.suggestions":"以前问过：","questions.source":"答案来自","questions.source.exact":"缓存（相同问题）","questions.source.similar":"缓存（相似问题）","questions.source.full_text":"缓存（全文匹配）","questions.source.deterministic":"新计划（规则）","questions.source.llm":"新计划（语言模型）","questions.source.command":"无：这是指令而不是问题（未保存）","questions.source.none":"无：没有理解","questions.similarity":"相似度","questions.rows":"行数","questions.plan":"查询计划","questions.raw":"结果行","questions.everything":"所有已公开实体","questions.aggregate":"回答方式","questions.limit":"最多 {limit} 行","aggregate.list":"列出","aggregate.count":"计数","aggregate.min":"最低","aggregate.max":"最高","aggregate.avg":"平均","aggregate.sum":"合计","field.entity_id":"实体","field.domain":"域","field.device_class":"设备类别","field.type":"类型","field.area":"区域","field.floor":"楼层","field.label":"标签","field.name":"名称","field.state":"状态","field.status":"状况","field.attribute":"属性","questions.saved":"已保存的计划（{count}）","questions.none_saved":"还没有保存的计划：先问一个问题吧。","questions.used":"使用 {count} 次","questions.valid":"有效","questions.invalid":"无效","questions.last_result":"上次回答","questions.n_rows":"{count} 行","questions.mark_invalid":"标为无效","questions.mark_valid":"标为有效","plan.type.air_conditioner":"空调","plan.type.air_purifier":"空气净化器","plan.type.air_quality":"空气质量","plan.type.automation":"自动化","plan.type.awning":"遮阳篷","plan.type.battery":"电池","plan.type.battery_charging":"电池充电","plan.type.blind":"百叶帘","plan.type.button":"按钮","plan.type.camera":"摄像头","plan.type.carbon_dioxide":"二氧化碳","plan.type.carbon_monoxide":"一氧化碳","plan.type.climate":"温控","plan.type.cold":"低温","plan.type.connectivity":"连接","plan.type.cover":"遮挡设备","plan.type.curtain":"窗帘","plan.type.door":"门","plan.type.energy":"电量","plan.type.fan":"风扇","plan.type.garage_door":"车库门","plan.type.gas":"燃气","plan.type.gate":"大门","plan.type.heat":"高温","plan.type.heater":"取暖器","plan.type.humidifier":"加湿器","plan.type.dehumidifier":"除湿机","plan.type.humidity":"湿度","plan.type.illuminance":"照度","plan.type.lawn_mower":"割草机","plan.type.light":"灯","plan.type.lock":"锁","plan.type.media_player":"媒体播放器","plan.type.moisture":"漏水","plan.type.motion":"人体移动","plan.type.occupancy":"有人","plan.type.opening":"开合","plan.type.outlet":"插座","plan.type.person":"人员","plan.type.plug":"插头","plan.type.pm10":"PM10","plan.type.pm25":"PM2.5","plan.type.power":"功率","plan.type.power_sensor":"功率传感器","plan.type.presence":"在家","plan.type.pressure":"气压","plan.type.problem":"故障","plan.type.running":"运行","plan.type.safety":"安全","plan.type.scene":"场景","plan.type.script":"脚本","plan.type.sensor":"传感器","plan.type.shade":"遮光帘","plan.type.shutter":"卷帘","plan.type.siren":"警报器","plan.type.smoke":"烟雾","plan.type.sound":"声音","plan.type.speaker":"音箱","plan.type.switch":"开关","plan.type.tamper":"防拆","plan.type.temperature":"温度","plan.type.temperature_sensor":"温度传感器","plan.type.tv":"电视","plan.type.update":"更新","plan.type.vacuum":"扫地机","plan.type.valve":"阀门","plan.type.vibration":"振动","plan.type.water_heater":"热水器","plan.type.weather":"天气","plan.type.window":"窗户","plan.status.on":"开着","plan.status.off":"关着","plan.status.open":"开着","plan.status.closed":"关着","plan.status.locked":"已上锁","plan.status.unlocked":"未上锁","plan.status.playing":"播放中","plan.status.paused":"已暂停","plan.status.unavailable":"不可用","plan.status.home":"在家","plan.status.away":"不在家","plan.status.detected":"检测到","plan.status.clear":"未检测到","plan.status.charging":"充电中","plan.status.armed":"已布防","plan.status.disarmed":"已撤防","plan.status.triggered":"已触发","plan.op.eq":"是","plan.op.ne":"不是","plan.op.in":"属于","plan.op.gt":"大于","plan.op.lt":"小于","plan.op.contains":"包含","plan.domain.light":"灯","plan.domain.switch":"开关","plan.domain.binary_sensor":"二元传感器","plan.domain.sensor":"传感器","plan.domain.lock":"锁","plan.domain.cover":"遮挡设备","plan.domain.climate":"温控","plan.domain.fan":"风扇","plan.domain.media_player":"媒体播放器","plan.domain.vacuum":"扫地机","plan.domain.humidifier":"加湿器","plan.domain.water_heater":"热水器","plan.domain.scene":"场景","plan.domain.script":"脚本","plan.domain.valve":"阀门","plan.domain.alarm_control_panel":"警报面板","plan.domain.person":"人员","plan.domain.camera":"摄像头","plan.domain.siren":"警报器","questions.plan_error.not_json":"计划不是有效的 JSON。","questions.plan_error.not_object":"计划必须是一个对象 {…}。","questions.plan_error.unknown_field":"{path} 处有未知字段。","questions.plan_error.bad_version":"未知的计划版本（{path}）。","questions.plan_error.bad_where":"“where” 必须是非空的条件组列表，每组是筛选条件列表（{path}）。","questions.plan_error.too_big":"{path} 处的计划过大。","questions.plan_error.bad_select":"“select” 必须是简短的属性名列表。","questions.plan_error.bad_aggregate":"未知的回答方式（aggregate）：请用 list、count、min、max、avg 或 sum。","questions.plan_error.bad_measure":"“measure” 必须是 “state” 或 “attribute:<名称>”。","questions.plan_error.bad_order":"{path} 处的排序无效。","questions.plan_error.bad_limit":"行数上限必须是 1 到 500 的整数。","questions.plan_error.bad_status":"{path} 处的状况未知。","questions.plan_error.bad_about":"“about” 只能包含简短文字（{path}）。","questions.plan_error.bad_filter":"{path} 处的筛选条件无效。","questions.plan_error.unknown_op":"{path} 处的运算符未知。","questions.plan_error.bad_op":"该运算符不适用于这个字段（{path}）。","questions.plan_error.bad_value":"{path} 处的值不适合它的运算符。","questions.plan_error.bad_type":"{path} 处的设备类型未知。","plan.measure.state":"状态值","plan.measure.attribute":"属性 {name}","questions.expect":"问的是否{status}","questions.value_separator":"、","questions.edit_help":"以 JSON 编辑计划；保存前会先检查。","questions.json_ok":"JSON 格式正确；保存时服务器会检查其余部分。","search.heading":"搜索实体","search.query":"搜索","search.placeholder":"吸顶灯","search.mode":"方式","search.mode.hybrid":"混合","search.mode.keyword":"关键词","search.mode.semantic":"语义","search.min_score":"最低得分 {value}","search.searching":"搜索中…","search.failed":"搜索失败。","search.idle":"输入文字搜索已公开的实体。","search.empty":"没有结果。","search.empty_hint":"没有高于最低得分的结果。换个说法，或调低最低得分。","search.count":"{total} 个结果 · {ms} 毫秒","search.degraded":"语义搜索不可用（{code}），结果来自{fallback}。","search.fallback.keyword":"仅关键词","search.fallback.hashing":"内置向量","search.field.alias":"别名","search.field.device":"设备","search.field.area":"区域","search.field.name":"名称","search.prev":"上一页","search.next":"下一页","search.page":"第 {page} 页，共 {pages} 页","rename.heading":"批量重命名","rename.intro":"在已公开实体的名称和别名中查找替换。修改前会先保存快照，可以回滚。","rename.find":"查找","rename.replace":"替换为","rename.target":"范围","rename.target.names":"名称","rename.target.aliases":"别名","rename.target.both":"名称和别名","rename.match_case":"区分大小写","rename.whole_word":"全词匹配","rename.regex":"正则表达式","rename.preview":"{entities} 个实体，{matches} 处匹配","rename.apply":"应用","rename.truncated":"一次要改的太多了，请缩小查找范围。","rename.keep":"重命名","rename.room":"房间","rename.field":"字段","rename.field.name":"名称","rename.field.alias":"别名","rename.before":"现在","rename.after":"改后","rename.nothing":"没有需要修改的内容。","rename.conflict.same_name":"与另一个重名","rename.conflict.empty_name":"已跳过：名称会变成空的","rename.conflict.name_too_long":"已跳过：名称会太长","rename.conflict.empty_alias":"已跳过：别名会变成空的","rename.conflict.alias_too_long":"已跳过：别名会太长","rename.conflict.duplicate_alias":"已跳过：该实体已有这个别名","rename.applied":"已重命名 {count} 个实体，并保存了快照。","rename.rolled_back":"已恢复 {count} 个实体。","rename.snapshots":"快照","rename.no_snapshots":"还没有重命名过。","rename.snapshot":"“{find}” · {count} 个实体","rename.rollback":"回滚","health.heading":"运行状态","health.index":"索引","health.state":"状态","health.state.ready":"就绪","health.state.rebuilding":"正在重建","health.state.empty":"尚未建立","health.entities":"已公开实体","health.areas":"区域 / 楼层","health.languages":"语言","health.last_build":"上次重建","health.build_seconds":"{seconds} 秒 · 共 {builds} 次","health.degradations":"降级","health.no_degradations":"一切按配置正常运行。","health.degradation.issue":"待修复问题","health.degradation.embedding":"嵌入服务","health.degradation.views":"视图规则存储","health.degradation.questions":"问题缓存","health.rates":"自 Home Assistant 启动以来","health.compile_success":"规则编译成功率","health.llm_fallback":"语言模型兜底率","health.preview_p95":"预览 p95","health.error_rate":"提问和编译失败率","health.plan_cache_hit":"计划缓存命中率","health.retrieval_p95":"检索 p95","health.question_p95":"提问 p95","health.backpressured":"被要求重试的调用","health.counts":"{compiles} 次编译，{previews} 次预览，{questions} 个问题，最近 {retrievals} 次检索。","health.embeddings_on":"嵌入服务：{kind}，{vectors} 个向量。","health.embeddings_off":"嵌入服务：无（使用内置向量）。"};var dt={en:fe,"zh-Hans":Ue};function re(n){return(n||"en").toLowerCase().startsWith("zh")?"zh-Hans":"en"}function Y(n){let s=re(n),e=dt[s];return(t,a)=>{let i=e[t]??fe[t]??t;if(a)for(let[r,h]of Object.entries(a))i=i.split(`{${r}}`).join(String(h));return i}}function ze(n,s,e=0){return s.toLocaleString(re(n)==="zh-Hans"?"zh-CN":"en-US",{maximumFractionDigits:e,minimumFractionDigits:0})}var _=class extends E{constructor(){super(...arguments);this.narrow=!1}get t(){return Y(this.hass?.language)}get uiLang(){return re(this.hass?.language)}num(e,t=0){return e==null?"—":ze(this.hass?.language,e,t)}percent(e){return e==null?"—":`${this.num(e*100,1)} %`}errorMessage(e){return Oe(this.hass,e,this.t("error.unknown"))}progress(e){return e?o`<div class="progress" role="progressbar" aria-label=${this.t("common.working")}></div>`:l}errorBox(e){return e?o`<div class="error" role="alert">${e}</div>`:l}};c([S({attribute:!1})],_.prototype,"hass",2),c([S({type:Boolean})],_.prototype,"narrow",2);function N(n,s=""){let e=Math.max(0,Math.min(1,Number.isFinite(n)?n:0))*100;return o`<div class="bar ${s}"><span style="width:${e.toFixed(1)}%"></span></div>`}var w=C`
  :host {
    display: block;
    color: var(--primary-text-color);
    font-family: var(--paper-font-body1_-_font-family, var(--ha-font-family-body, Roboto, sans-serif));
    font-size: 14px;
  }
  .card {
    background: var(--ha-card-background, var(--card-background-color, #fff));
    border-radius: var(--ha-card-border-radius, 12px);
    border: 1px solid var(--ha-card-border-color, var(--divider-color, #e0e0e0));
    box-shadow: var(--ha-card-box-shadow, none);
    padding: 16px;
    margin-bottom: 16px;
  }
  .card h2, .card h3 {
    margin: 0 0 12px;
    font-weight: 500;
  }
  h2 { font-size: 20px; }
  h3 { font-size: 16px; }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
  .grow { flex: 1 1 240px; min-width: 0; }
  label { color: var(--secondary-text-color); font-size: 12px; display: block; }
  input[type="text"], input[type="number"], input:not([type]), textarea, select {
    box-sizing: border-box;
    width: 100%;
    font: inherit;
    color: var(--primary-text-color);
    background: var(--secondary-background-color, #f5f5f5);
    border: 1px solid var(--divider-color, #ccc);
    border-bottom: 2px solid var(--secondary-text-color, #888);
    border-radius: 4px 4px 0 0;
    padding: 10px 12px;
    outline: none;
  }
  input:focus, textarea:focus, select:focus {
    border-bottom-color: var(--primary-color, #03a9f4);
  }
  textarea { resize: vertical; min-height: 64px; font-family: var(--code-font-family, monospace); }
  input[type="checkbox"] { accent-color: var(--primary-color); }
  button {
    font: inherit;
    font-weight: 500;
    border: none;
    border-radius: 18px;
    padding: 8px 16px;
    cursor: pointer;
    background: var(--primary-color, #03a9f4);
    color: var(--text-primary-color, #fff);
    min-height: 36px;
  }
  button.secondary {
    background: transparent;
    color: var(--primary-color, #03a9f4);
    border: 1px solid var(--divider-color, #ccc);
  }
  button.danger { background: var(--error-color, #db4437); color: var(--text-primary-color, #fff); }
  button[disabled] { opacity: 0.5; cursor: default; }
  .muted { color: var(--secondary-text-color); }
  .small { font-size: 12px; }
  .error {
    color: var(--error-color, #db4437);
    border-left: 4px solid var(--error-color, #db4437);
    padding: 8px 12px;
    background: rgba(219, 68, 55, 0.08);
    border-radius: 4px;
    margin: 8px 0;
  }
  .warning {
    border-left: 4px solid var(--warning-color, #ffa600);
    padding: 8px 12px;
    background: rgba(255, 166, 0, 0.12);
    border-radius: 4px;
    margin: 8px 0;
  }
  .ok-note {
    border-left: 4px solid var(--success-color, #43a047);
    padding: 8px 12px;
    background: rgba(67, 160, 71, 0.1);
    border-radius: 4px;
    margin: 8px 0;
  }
  .chips { display: flex; flex-wrap: wrap; gap: 6px; }
  .chip {
    display: inline-flex;
    gap: 4px;
    align-items: center;
    border-radius: 12px;
    padding: 2px 10px;
    font-size: 12px;
    background: var(--secondary-background-color, #eee);
    border: 1px solid var(--divider-color, #ddd);
    white-space: nowrap;
  }
  .chip b { font-weight: 500; color: var(--secondary-text-color); }
  .chip.out { border-color: var(--error-color, #db4437); }
  .chip.in { border-color: var(--success-color, #43a047); }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; }
  th, td {
    text-align: left;
    padding: 6px 8px;
    border-bottom: 1px solid var(--divider-color, #e0e0e0);
    vertical-align: top;
  }
  th { font-weight: 500; color: var(--secondary-text-color); font-size: 12px; }
  tr.selected td { background: rgba(3, 169, 244, 0.08); }
  code, pre {
    font-family: var(--code-font-family, monospace);
    font-size: 12px;
  }
  pre {
    background: var(--code-editor-background-color, var(--secondary-background-color, #f5f5f5));
    padding: 12px;
    border-radius: 8px;
    overflow: auto;
    max-height: 420px;
    margin: 0;
    white-space: pre-wrap;
    word-break: break-word;
  }
  .bar {
    position: relative;
    height: 8px;
    min-width: 80px;
    background: var(--divider-color, #e0e0e0);
    border-radius: 4px;
    overflow: hidden;
  }
  .bar > span {
    position: absolute;
    left: 0; top: 0; bottom: 0;
    background: var(--primary-color, #03a9f4);
  }
  .bar.semantic > span { background: var(--accent-color, #ff9800); }
  .bar.recency > span { background: var(--success-color, #43a047); }
  .bars { display: grid; grid-template-columns: auto 1fr auto; gap: 2px 6px; align-items: center;
          font-size: 11px; min-width: 160px; }
  .progress {
    height: 4px;
    overflow: hidden;
    position: relative;
    background: rgba(3, 169, 244, 0.15);
    border-radius: 2px;
    margin: 8px 0;
  }
  .progress::after {
    content: "";
    position: absolute;
    left: -40%;
    width: 40%;
    top: 0; bottom: 0;
    background: var(--primary-color, #03a9f4);
    animation: slide 1.1s infinite ease-in-out;
  }
  @keyframes slide { to { left: 100%; } }
  .big-number { font-size: 28px; font-weight: 400; }
  .stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; }
  .stat { padding: 12px; border-radius: 8px; background: var(--secondary-background-color, #f5f5f5); }
  .stat .label { color: var(--secondary-text-color); font-size: 12px; }
  .tree ul { list-style: none; margin: 0; padding-left: 18px; border-left: 1px dashed var(--divider-color, #ccc); }
  .tree > ul { padding-left: 0; border-left: none; }
  .tree li { margin: 2px 0; }
  .op { font-weight: 500; color: var(--primary-color, #03a9f4); }
  .caret { color: var(--error-color, #db4437); }
  .diff-add { background: rgba(67, 160, 71, 0.18); }
  .diff-del { background: rgba(219, 68, 55, 0.18); text-decoration: line-through; }
  .list-item {
    display: flex; gap: 8px; align-items: center; justify-content: space-between;
    padding: 10px 0; border-bottom: 1px solid var(--divider-color, #e0e0e0);
  }
  .list-item:last-child { border-bottom: none; }
  .clickable { cursor: pointer; }
  .banner {
    padding: 10px 14px;
    border-radius: 8px;
    margin-bottom: 12px;
    background: rgba(255, 166, 0, 0.15);
    border: 1px solid var(--warning-color, #ffa600);
  }
  @media (max-width: 600px) {
    .card { padding: 12px; border-radius: 8px; }
    .hide-narrow { display: none; }
    /* On a phone a table of class "cards" shows each row as a card of its own lines: a table
       scrolled sideways hid its right-hand columns (scores, bars, states) off the screen. */
    table.cards thead { display: none; }
    table.cards tr { display: block; padding: 8px 0;
      border-bottom: 1px solid var(--divider-color, rgba(127, 127, 127, 0.3)); }
    table.cards td { display: block; border: none; padding: 2px 0; overflow-wrap: anywhere; }
    table.cards td.hide-narrow { display: block; }
    table.cards .bars, table.cards .bar { min-width: 0; }
  }
`;var ct=15e3,H=class extends _{constructor(){super(...arguments);this.health=null;this.loading=!1;this.error=null}connectedCallback(){super.connectedCallback(),this.load(),this.timer=setInterval(()=>this.load(),ct)}disconnectedCallback(){this.timer&&clearInterval(this.timer),super.disconnectedCallback()}async load(){this.loading=!0;try{this.health=await v(this.hass,"health"),this.error=null}catch(e){this.error=this.errorMessage(e)}finally{this.loading=!1}}render(){let e=this.t,t=this.health;return o`
      <div class="card">
        <div class="row" style="justify-content:space-between">
          <h2>${e("health.heading")}</h2>
          <button class="secondary" id="refresh" ?disabled=${this.loading} @click=${this.load}>${e("common.refresh")}</button>
        </div>
        ${this.progress(this.loading)}
        ${this.errorBox(this.error)}
        ${t?this.renderIndex(t):l}
      </div>
      ${t?this.renderRates(t):l}
    `}stat(e,t,a=""){return o`<div class="stat" id=${a||l}><div class="label">${e}</div>
      <div class="big-number" style="font-size:22px">${t}</div></div>`}renderIndex(e){let t=this.t,a=e.index,i=a.last_build_at?new Date(a.last_build_at*1e3).toLocaleString(this.uiLang==="zh-Hans"?"zh-CN":"en-US"):"—";return o`
      <h3>${t("health.index")}</h3>
      <div class="stats" id="index-stats">
        ${this.stat(t("health.state"),o`<span id="index-state">${t(`health.state.${a.state}`)}</span>`)}
        ${this.stat(t("health.entities"),this.num(a.entities),"entities")}
        ${this.stat(t("health.areas"),`${this.num(a.areas)} / ${this.num(a.floors)}`)}
        ${this.stat(t("health.languages"),a.languages.join(", ")||"—")}
        ${this.stat(t("health.last_build"),o`<span style="font-size:14px">${i}</span>
          <div class="muted small">${t("health.build_seconds",{seconds:this.num(a.last_build_seconds,3),builds:a.builds})}</div>`)}
      </div>
      <h3 style="margin-top:16px">${t("health.degradations")}</h3>
      <div id="degradations">${e.degradations.length?e.degradations.map(r=>o`
        <div class="warning">${t(`health.degradation.${r.kind}`)}: <code>${r.code}</code></div>`):o`<div class="ok-note">${t("health.no_degradations")}</div>`}</div>
    `}renderRates(e){let t=this.t,a=i=>i===null?"—":`${this.num(i,1)} ms`;return o`
      <div class="card">
        <h3>${t("health.rates")}</h3>
        <div class="stats" id="rates">
          ${this.stat(t("health.compile_success"),this.percent(e.compile_success_rate))}
          ${this.stat(t("health.llm_fallback"),this.percent(e.llm_fallback_rate))}
          ${this.stat(t("health.preview_p95"),a(e.preview_p95_ms))}
          ${this.stat(t("health.error_rate"),this.percent(e.error_rate))}
          ${this.stat(t("health.plan_cache_hit"),this.percent(e.plan_cache_hit_rate))}
          ${this.stat(t("health.retrieval_p95"),a(e.retrieval_p95_ms))}
          ${this.stat(t("health.question_p95"),a(e.question_p95_ms))}
          ${this.stat(t("health.backpressured"),this.num(e.backpressured))}
        </div>
        <p class="muted small">${t("health.counts",{compiles:e.compiles,previews:e.previews,questions:e.questions_asked,retrievals:e.retrievals})}</p>
        <p class="muted small">${e.embeddings.configured?t("health.embeddings_on",{kind:e.embeddings.kind??"",vectors:this.num(e.embeddings.vectors)}):t("health.embeddings_off")}</p>
      </div>
    `}};H.styles=[w],c([p()],H.prototype,"health",2),c([p()],H.prototype,"loading",2),c([p()],H.prototype,"error",2);var pt=200,f=class extends _{constructor(){super(...arguments);this.question="";this.asking=!1;this.answer=null;this.error=null;this.suggestions=[];this.saved=[];this.total=0;this.loadingSaved=!1;this.savedError=null;this.editing=null;this.editText="";this.editError=null;this.editNote=null;this.confirming=null;this.latest=new A;this.scheduleSuggest=M(()=>this.suggest(),pt)}connectedCallback(){super.connectedCallback(),this.loadSaved()}disconnectedCallback(){this.scheduleSuggest.cancel(),super.disconnectedCallback()}async loadSaved(){this.loadingSaved=!0,this.savedError=null;try{let e=await v(this.hass,"questions/list",{limit:100});this.saved=e.plans,this.total=e.total}catch(e){this.savedError=this.errorMessage(e)}finally{this.loadingSaved=!1}}onInput(e){this.question=e.target.value,this.question.trim()?this.scheduleSuggest():(this.scheduleSuggest.cancel(),this.latest.cancel(),this.suggestions=[])}async suggest(){let e=this.question.trim();if(e)try{let{current:t,value:a}=await this.latest.run(()=>v(this.hass,"questions/suggest",{question:e}));t&&(this.suggestions=a.suggestions.filter(i=>i.question!==e))}catch{this.suggestions=[]}}async ask(){let e=this.question.trim();if(!(!e||this.asking)){this.asking=!0,this.error=null,this.suggestions=[],this.latest.cancel();try{this.answer=await v(this.hass,"questions/ask",{question:e}),this.loadSaved()}catch(t){this.error=this.errorMessage(t)}finally{this.asking=!1}}}async setValid(e,t){try{await v(this.hass,"questions/update",{plan_id:e.id,is_valid:t}),await this.loadSaved()}catch(a){this.savedError=this.errorMessage(a)}}startEdit(e){if(this.editing===e.id){this.cancelEdit();return}this.editing=e.id,this.editText=JSON.stringify(e.plan,null,2),this.editError=null,this.editNote=null}cancelEdit(){this.editing=null,this.editText="",this.editError=null,this.editNote=null}onEditInput(e){this.editText=e.target.value;let t=this.parseEdit();this.editError=t.error,this.editNote=t.error?null:this.t("questions.json_ok")}parseEdit(){let e;try{e=JSON.parse(this.editText)}catch{return{plan:null,error:this.t("questions.plan_error.not_json")}}return e===null||typeof e!="object"||Array.isArray(e)?{plan:null,error:this.t("questions.plan_error.not_object")}:{plan:e,error:null}}planError(e){let t=e?.translation_placeholders,a=t?.reason,i=this.t(`questions.plan_error.${a}`,{path:t?.path||"—"});return a&&i!==`questions.plan_error.${a}`?i:this.errorMessage(e)}async saveEdit(e){let t=this.parseEdit();if(t.error){this.editError=t.error;return}try{await v(this.hass,"questions/update",{plan_id:e.id,plan:t.plan}),this.cancelEdit(),await this.loadSaved()}catch(a){this.editError=this.planError(a),this.editNote=null}}async deletePlan(e){try{await v(this.hass,"questions/delete",{plan_id:e.id}),this.confirming=null,await this.loadSaved()}catch(t){this.savedError=this.errorMessage(t)}}render(){let e=this.t;return o`
      <div class="card">
        <h2>${e("questions.heading")}</h2>
        <p class="muted">${e("questions.intro")}</p>
        <div class="row">
          <div class="grow">
            <label for="question">${e("questions.question")}</label>
            <input id="question" type="text" .value=${this.question}
              placeholder=${e("questions.placeholder")} @input=${this.onInput}
              @keydown=${t=>{t.key==="Enter"&&this.ask()}} />
          </div>
          <button id="ask" ?disabled=${this.asking||!this.question.trim()} @click=${this.ask}>
            ${e("questions.ask")}</button>
        </div>
        ${this.suggestions.length?o`<div class="chips" id="suggestions" style="margin-top:8px">
          <span class="muted small">${e("questions.suggestions")}</span>
          ${this.suggestions.map(t=>o`<button class="secondary suggestion" @click=${()=>{this.question=t.question,this.suggestions=[]}}>${t.question} <span class="muted small">${this.percent(t.similarity)}</span></button>`)}
        </div>`:l}
        ${this.progress(this.asking)}
        ${this.errorBox(this.error)}
      </div>
      ${this.answer?this.renderAnswer(this.answer):l}
      ${this.renderSaved()}
    `}renderAnswer(e){let t=this.t,a=e.plan??e.draft_plan??null;return o`
      <div class="card" id="answer">
        <div class=${e.success?"ok-note":"warning"}><span id="human" class="big-number" style="font-size:20px">${e.human}</span></div>
        <div class="chips" style="margin:8px 0">
          <span class="chip" id="source"><b>${t("questions.source")}</b>
            ${t(`questions.source.${e.error==="command"?"command":e.source??"none"}`)}</span>
          ${e.similarity!==void 0?o`<span class="chip"><b>${t("questions.similarity")}</b>
            ${this.percent(e.similarity)}</span>`:l}
          ${e.raw?o`<span class="chip"><b>${t("questions.rows")}</b> ${this.num(e.raw.count)}</span>`:l}
        </div>
        ${a?o`<h3>${t("questions.plan")}</h3>${this.readablePlan(a)}`:l}
        ${e.raw&&e.raw.rows.length?o`<h3 style="margin-top:12px">${t("questions.raw")}</h3>
          <div class="table-wrap"><table id="rows" class="cards">
            <thead><tr><th>${t("common.entity")}</th><th>${t("common.area")}</th>
              <th>${t("common.state")}</th></tr></thead>
            <tbody>${e.raw.rows.map(i=>o`<tr><td>${i.name}<br><code class="muted">${i.entity_id}</code></td>
              <td>${i.area??"—"}</td><td>${i.value!==void 0&&i.value!==null?`${i.value}${i.unit?" "+i.unit:""}`:this.stateText(i)}</td></tr>`)}</tbody>
          </table></div>`:l}
      </div>
    `}term(e,t){let a=String(t),i=this.hass,r=d=>i.localize?.(d)||"",h={type:this.t(`plan.type.${a}`),status:this.t(`plan.status.${a}`),domain:this.t(`plan.domain.${a}`)};if(e in h){let d=h[e];return d!==`plan.${e}.${a}`?d:e==="domain"&&r(`component.${a}.title`)||a}return e==="device_class"?r(`component.binary_sensor.entity_component.${a}.name`)||r(`component.sensor.entity_component.${a}.name`)||a:e==="area"?i.areas?.[a]?.name??a:e==="floor"?i.floors?.[a]?.name??a:e==="entity_id"?i.states?.[a]?.attributes?.friendly_name??a:a}stateText(e){let t=this.hass,a=t.states?.[e.entity_id];if(a&&t.formatEntityState)try{let r=t.formatEntityState(a,e.state);if(r)return r}catch{}let i=this.t(`plan.status.${e.state}`);return i===`plan.status.${e.state}`?e.state:i}languageName(e){let t=this.t(`language.${e}`);return t===`language.${e}`?e:t}measure(e){return e.startsWith("attribute:")?this.t("plan.measure.attribute",{name:e.slice(10)}):this.t(`plan.measure.${e}`)}readablePlan(e){let t=this.t,a=r=>(Array.isArray(r.value)?r.value:[r.value]).map(h=>this.term(r.field,h)).join(t("questions.value_separator")),i=r=>r.field==="attribute"&&r.attribute?`${t("field.attribute")} ${r.attribute}`:t(`field.${r.field}`);return o`<div class="plan">
      ${e.where.length?e.where.map((r,h)=>o`
        ${h>0?o`<div class="op">${t("views.op_or")}</div>`:l}
        <div class="chips">${r.map((d,u)=>o`${u>0?o`<span class="op small">${t("views.op_and")}</span>`:l}
          <span class="chip filter">${i(d)} ${t(`plan.op.${d.op}`)} ${a(d)}${d.unit?" "+d.unit:""}</span>`)}</div>`):o`<span class="chip">${t("questions.everything")}</span>`}
      <div class="muted small" style="margin-top:6px">${t("questions.aggregate")}:
        ${t(`aggregate.${e.aggregate}`)}${e.measure?` (${this.measure(e.measure)})`:""}
        ${e.expect?o` · ${t("questions.expect",{status:this.term("status",e.expect)})}`:l}
        · ${t("questions.limit",{limit:e.limit})}</div>
    </div>`}renderSaved(){let e=this.t;return o`
      <div class="card" id="saved">
        <h3>${e("questions.saved",{count:this.num(this.total)})}</h3>
        ${this.progress(this.loadingSaved)}
        ${this.errorBox(this.savedError)}
        ${!this.loadingSaved&&!this.saved.length?o`<p class="muted">${e("questions.none_saved")}</p>`:l}
        ${this.saved.map(t=>o`
          <div class="list-item saved-plan" style="flex-wrap:wrap">
            <div class="grow">
              <div><b>${t.question}</b> <span class="muted small">${this.languageName(t.language)}</span></div>
              <div class="chips small" style="margin-top:4px">
                <span class="chip">${e("questions.used",{count:t.usage_count})}</span>
                <span class="chip ${t.is_valid?"in":"out"}">${t.is_valid?e("questions.valid"):e("questions.invalid")}</span>
                ${t.last_result?o`<span class="chip">${e("questions.last_result")}:
                  ${t.last_result.value!==null&&t.last_result.value!==void 0?`${t.last_result.value}${t.last_result.unit?" "+t.last_result.unit:""}`:e("questions.n_rows",{count:t.last_result.count??0})}</span>`:l}
              </div>
            </div>
            <div class="row">
              <button class="secondary" @click=${()=>this.setValid(t,!t.is_valid)}>
                ${t.is_valid?e("questions.mark_invalid"):e("questions.mark_valid")}</button>
              <button class="secondary edit-plan" @click=${()=>this.startEdit(t)}>${e("common.edit")}</button>
              ${this.confirming===t.id?o`
                <button class="danger" @click=${()=>this.deletePlan(t)}>${e("common.delete")}</button>
                <button class="secondary" @click=${()=>this.confirming=null}>${e("common.cancel")}</button>`:o`<button class="secondary delete-plan" @click=${()=>this.confirming=t.id}>
                  ${e("common.delete")}</button>`}
            </div>
            ${this.editing===t.id?o`<div class="plan-editor" style="flex-basis:100%">
              ${this.readablePlan(t.plan)}
              <p class="muted small">${e("questions.edit_help")}</p>
              <textarea rows="10" .value=${this.editText} aria-invalid=${this.editError?"true":"false"}
                @input=${this.onEditInput}></textarea>
              ${this.editError?o`<div class="error plan-error" role="alert">${this.editError}</div>`:l}
              ${this.editNote?o`<div class="muted small plan-note">${this.editNote}</div>`:l}
              <div class="row">
                <button class="save-plan" ?disabled=${!!this.editError} @click=${()=>this.saveEdit(t)}>${e("common.save")}</button>
                <button class="secondary cancel-edit" @click=${()=>this.cancelEdit()}>${e("common.cancel")}</button>
              </div></div>`:l}
          </div>`)}
      </div>
    `}};f.styles=[w],c([p()],f.prototype,"question",2),c([p()],f.prototype,"asking",2),c([p()],f.prototype,"answer",2),c([p()],f.prototype,"error",2),c([p()],f.prototype,"suggestions",2),c([p()],f.prototype,"saved",2),c([p()],f.prototype,"total",2),c([p()],f.prototype,"loadingSaved",2),c([p()],f.prototype,"savedError",2),c([p()],f.prototype,"editing",2),c([p()],f.prototype,"editText",2),c([p()],f.prototype,"editError",2),c([p()],f.prototype,"editNote",2),c([p()],f.prototype,"confirming",2);var ht=250,$=class extends _{constructor(){super(...arguments);this.find="";this.replace="";this.target="names";this.matchCase=!1;this.wholeWord=!0;this.excluded=new Set;this.regex=!1;this.plan=null;this.previewing=!1;this.applying=!1;this.error=null;this.message=null;this.snapshots=[];this.latest=new A;this.schedulePreview=M(()=>this.preview(),ht)}connectedCallback(){super.connectedCallback(),this.loadSnapshots()}disconnectedCallback(){this.schedulePreview.cancel(),super.disconnectedCallback()}spec(){return{find:this.find,replace:this.replace,target:this.target,match_case:this.matchCase,whole_word:this.wholeWord,regex:this.regex,exclude:[...this.excluded]}}changed(){if(this.message=null,this.excluded=new Set,!this.find){this.schedulePreview.cancel(),this.latest.cancel(),this.plan=null,this.error=null,this.previewing=!1;return}this.previewing=!0,this.schedulePreview()}async preview(){if(!this.find)return;let e=this.spec(),{current:t,value:a}=await this.latest.run(()=>v(this.hass,"rename/preview",{...e,exclude:[]}).then(i=>({plan:i,error:null}),i=>({plan:null,error:i})));t&&(this.previewing=!1,this.plan=a.plan,this.error=a.error?this.errorMessage(a.error):null)}async loadSnapshots(){try{this.snapshots=(await v(this.hass,"rename/snapshots")).snapshots}catch(e){this.error=this.errorMessage(e)}}async apply(){if(!(!this.plan||!this.plan.changes.length)){this.applying=!0,this.error=null;try{let e=await v(this.hass,"rename/execute",this.spec());this.message=this.t("rename.applied",{count:e.entities}),this.plan=null,this.excluded=new Set,await this.loadSnapshots()}catch(e){this.error=this.errorMessage(e)}finally{this.applying=!1}}}async rollback(e){this.applying=!0,this.error=null;try{let t=await v(this.hass,"rename/rollback",{snapshot_id:e.id});this.message=this.t("rename.rolled_back",{count:t.restored}),this.find&&this.preview()}catch(t){this.error=this.errorMessage(t)}finally{this.applying=!1}}render(){let e=this.t,t=(a,i,r,h)=>o`
      <label class="row" style="font-size:13px;color:var(--primary-text-color)">
        <input type="checkbox" id=${h} .checked=${i}
          @change=${d=>{r(d.target.checked),this.changed()}} />${a}</label>`;return o`
      <div class="card">
        <h2>${e("rename.heading")}</h2>
        <p class="muted">${e("rename.intro")}</p>
        <div class="row">
          <div class="grow"><label for="find">${e("rename.find")}</label>
            <input id="find" type="text" .value=${this.find}
              @input=${a=>{this.find=a.target.value,this.changed()}} /></div>
          <div class="grow"><label for="replace">${e("rename.replace")}</label>
            <input id="replace" type="text" .value=${this.replace}
              @input=${a=>{this.replace=a.target.value,this.changed()}} /></div>
          <div><label for="target">${e("rename.target")}</label>
            <select id="target" @change=${a=>{this.target=a.target.value,this.changed()}}>
              ${["names","aliases","both"].map(a=>o`<option value=${a} ?selected=${a===this.target}>
                ${e(`rename.target.${a}`)}</option>`)}</select></div>
        </div>
        <div class="row" style="margin-top:8px">
          ${t(e("rename.match_case"),this.matchCase,a=>this.matchCase=a,"match-case")}
          ${t(e("rename.whole_word"),this.wholeWord,a=>this.wholeWord=a,"whole-word")}
          ${t(e("rename.regex"),this.regex,a=>this.regex=a,"regex")}
        </div>
        ${this.progress(this.previewing||this.applying)}
        ${this.errorBox(this.error)}
        ${this.message?o`<div class="ok-note" id="rename-message">${this.message}</div>`:l}
      </div>
      ${this.plan?this.renderPlan(this.plan):l}
      ${this.renderSnapshots()}
    `}toggle(e,t){let a=new Set(this.excluded);t?a.delete(e):a.add(e),this.excluded=a}renderPlan(e){let t=this.t,a=e.changes.filter(r=>!this.excluded.has(r.entity_id)).length,i=new Map;for(let r of e.changes)r.field==="name"&&i.set(r.after.toLowerCase(),(i.get(r.after.toLowerCase())??0)+1);return o`
      <div class="card" id="rename-preview">
        <div class="row" style="justify-content:space-between">
          <h3>${t("rename.preview",{entities:this.num(e.entities),matches:this.num(e.matches)})}</h3>
          <button id="apply" ?disabled=${this.applying||!a||e.truncated}
            @click=${this.apply}>${t("rename.apply")}</button>
        </div>
        ${e.truncated?o`<div class="warning">${t("rename.truncated")}</div>`:l}
        ${e.changes.length||e.skipped.length?o`<div class="table-wrap"><table class="rename">
          <thead><tr><th>${t("rename.keep")}</th><th>${t("common.entity")}</th><th>${t("rename.room")}</th><th>${t("rename.field")}</th>
            <th>${t("rename.before")}</th><th></th><th>${t("rename.after")}</th></tr></thead>
          <tbody>
            ${e.changes.map(r=>{let h=r.field==="name"&&(i.get(r.after.toLowerCase())??0)>1,d=!this.excluded.has(r.entity_id);return o`<tr class="change ${h?"conflict":""} ${d?"":"left-out"}">
                <td><input type="checkbox" class="keep" aria-label=${t("rename.keep")} .checked=${d}
                  @change=${u=>this.toggle(r.entity_id,u.target.checked)} /></td>
                <td><code class="small">${r.entity_id}</code></td>
                <td class="room">${r.area??"—"}</td>
                <td>${t(`rename.field.${r.field}`)}</td>
                <td>${r.before}</td><td class="arrow">→</td>
                <td>${r.after} ${h?o`<span class="chip out">${t("rename.conflict.same_name")}</span>`:l}</td>
              </tr>`})}
            ${e.skipped.map(r=>o`<tr class="conflict">
              <td></td><td><code class="small">${r.entity_id}</code></td><td></td><td>${t(`rename.field.${r.field}`)}</td>
              <td colspan="3"><span class="chip out">${t(`rename.conflict.${r.reason}`)}</span></td></tr>`)}
          </tbody></table></div>`:o`<p class="muted">${t("rename.nothing")}</p>`}
      </div>
    `}renderSnapshots(){let e=this.t;return o`
      <div class="card" id="snapshots">
        <h3>${e("rename.snapshots")}</h3>
        ${this.snapshots.length?l:o`<p class="muted">${e("rename.no_snapshots")}</p>`}
        ${this.snapshots.map(t=>o`<div class="list-item snapshot">
          <div class="grow">${e("rename.snapshot",{find:t.find,count:t.entities})}
            <div class="muted small">${new Date(t.created_at).toLocaleString(this.uiLang==="zh-Hans"?"zh-CN":"en-US")}</div></div>
          <button class="secondary rollback" ?disabled=${this.applying} @click=${()=>this.rollback(t)}>
            ${e("rename.rollback")}</button></div>`)}
      </div>
    `}};$.styles=[w,C`
    tr.left-out td { opacity: 0.5; text-decoration: line-through; }
    tr.left-out td:first-child { text-decoration: none; opacity: 1; }
    /* At phone width each change is a small card of its own lines, never a table squeezed
       to a character per line. */
    @media (max-width: 600px) {
      table.rename thead { display: none; }
      table.rename tr { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px;
        padding: 8px 0; border-bottom: 1px solid var(--divider-color, rgba(127, 127, 127, 0.3)); }
      table.rename td { display: block; border: none; padding: 0; overflow-wrap: anywhere; }
      table.rename td:first-child { grid-row: span 6; }
      table.rename td.arrow { display: none; }
    }
  `],c([p()],$.prototype,"find",2),c([p()],$.prototype,"replace",2),c([p()],$.prototype,"target",2),c([p()],$.prototype,"matchCase",2),c([p()],$.prototype,"wholeWord",2),c([p()],$.prototype,"excluded",2),c([p()],$.prototype,"regex",2),c([p()],$.prototype,"plan",2),c([p()],$.prototype,"previewing",2),c([p()],$.prototype,"applying",2),c([p()],$.prototype,"error",2),c([p()],$.prototype,"message",2),c([p()],$.prototype,"snapshots",2);var ut=150,mt=20;function gt(n){let s=[],e="",t=!1;for(let a=0;a<n.length;a++){let i=n[a];if(i==="\\"&&a+1<n.length){e+=n[++a];continue}if(i==="["||i==="]"){e&&s.push({text:e,hit:t}),e="",t=i==="[";continue}e+=i}return e&&s.push({text:e,hit:t}),s.map(a=>a.hit?o`<mark>${a.text}</mark>`:a.text)}var k=class extends _{constructor(){super(...arguments);this.query="";this.strategy="hybrid";this.minScore=.25;this.page=1;this.searching=!1;this.error=null;this.result=null;this.latest=new A;this.scheduleSearch=M(()=>this.search(),ut)}disconnectedCallback(){this.scheduleSearch.cancel(),super.disconnectedCallback()}changed(e=!0){if(e&&(this.page=1),!this.query.trim()){this.scheduleSearch.cancel(),this.latest.cancel(),this.result=null,this.error=null,this.searching=!1;return}this.searching=!0,this.scheduleSearch()}async search(){let e=this.query.trim();if(!e)return;this.searching=!0;let t={query:e,strategy:this.strategy,min_score:this.minScore,page:this.page,page_size:mt},{current:a,value:i}=await this.latest.run(()=>v(this.hass,"search",t).then(r=>({result:r,error:null}),r=>({result:null,error:r})));a&&(this.searching=!1,this.result=i.result,this.error=i.error?this.errorMessage(i.error):null)}goto(e){this.page=e,this.changed(!1)}render(){let e=this.t;return o`
      <div class="card">
        <h2>${e("search.heading")}</h2>
        <div class="row">
          <div class="grow">
            <label for="query">${e("search.query")}</label>
            <input id="query" type="text" .value=${this.query} placeholder=${e("search.placeholder")}
              @input=${t=>{this.query=t.target.value,this.changed()}} />
          </div>
          <div>
            <label for="strategy">${e("search.mode")}</label>
            <select id="strategy" @change=${t=>{this.strategy=t.target.value,this.changed()}}>${["hybrid","keyword","semantic"].map(t=>o`<option value=${t}
              ?selected=${t===this.strategy}>${e(`search.mode.${t}`)}</option>`)}</select>
          </div>
          <div style="min-width:160px">
            <label for="min-score">${e("search.min_score",{value:this.num(this.minScore,2)})}</label>
            <input id="min-score" type="range" min="0" max="1" step="0.05" .value=${String(this.minScore)}
              @input=${t=>{this.minScore=Number(t.target.value),this.changed()}} />
          </div>
        </div>
        ${this.progress(this.searching)}
        <div id="search-state" class="muted small" aria-live="polite">${this.stateText()}</div>
        ${this.errorBox(this.error)}
      </div>
      ${this.result?this.renderResult(this.result):l}
    `}stateText(){let e=this.t;return this.searching?e("search.searching"):this.error?e("search.failed"):this.result?this.result.total?e("search.count",{total:this.num(this.result.total),ms:this.num(this.result.milliseconds,1)}):e("search.empty"):e("search.idle")}renderResult(e){let t=this.t,a=Math.max(1,Math.ceil(e.total/e.page_size));return o`
      ${e.degraded.length?o`<div class="banner" id="degraded" role="status">
        ${e.degraded.map(i=>o`<div>${t("search.degraded",{code:i.code,fallback:t(`search.fallback.${i.fallback??"hashing"}`)})}</div>`)}</div>`:l}
      <div class="card">
        ${e.results.length?o`<div class="table-wrap"><table id="results" class="cards">
          <thead><tr><th>${t("common.entity")}</th><th class="hide-narrow">${t("common.area")}</th>
            <th>${t("common.score")}</th><th>${t("try.breakdown")}</th></tr></thead>
          <tbody>${e.results.map(i=>o`<tr class="hit">
            <td>${gt(i.matched)}
              ${i.matched_field!=="name"?o`<span class="muted small">(${t(`search.field.${i.matched_field}`)})</span>`:l}
              <br><span class="small">${i.name}</span> <code class="muted">${i.entity_id}</code></td>
            <td class="hide-narrow">${i.area??"—"}</td>
            <td>${this.num(i.score,3)}</td>
            <td><div class="bars">
              <span>${t("score.keyword")}</span>${N(i.score_breakdown.keyword??0)}<span>${this.num(i.score_breakdown.keyword??0,2)}</span>
              <span>${t("score.semantic")}</span>${N(i.score_breakdown.semantic??0,"semantic")}<span>${this.num(i.score_breakdown.semantic??0,2)}</span>
              <span>${t("score.recency")}</span>${N(i.score_breakdown.recency??0,"recency")}<span>${this.num(i.score_breakdown.recency??0,2)}</span>
            </div></td></tr>`)}</tbody>
        </table></div>`:o`<p class="muted" id="no-results">${t("search.empty_hint")}</p>`}
        ${e.total>e.page_size?o`<div class="row" id="paging" style="justify-content:center;margin-top:12px">
          <button class="secondary" id="prev" ?disabled=${e.page<=1} @click=${()=>this.goto(e.page-1)}>${t("search.prev")}</button>
          <span>${t("search.page",{page:e.page,pages:a})}</span>
          <button class="secondary" id="next" ?disabled=${!e.has_more} @click=${()=>this.goto(e.page+1)}>${t("search.next")}</button>
        </div>`:l}
      </div>
    `}};k.styles=[w],c([p()],k.prototype,"query",2),c([p()],k.prototype,"strategy",2),c([p()],k.prototype,"minScore",2),c([p()],k.prototype,"page",2),c([p()],k.prototype,"searching",2),c([p()],k.prototype,"error",2),c([p()],k.prototype,"result",2);var vt=["","en","zh","de","es","fr","ru"],q=class q extends _{constructor(){super(...arguments);this.text="";this.language="";this.keepConversation=!1;this.busy=!1;this.error=null;this.answer=null;this.conversationId=q.newConversation()}static newConversation(){return`panel-${Math.random().toString(36).slice(2,10)}`}async run(){let e=this.text.trim();if(!(!e||this.busy)){this.busy=!0,this.error=null;try{let t={text:e};this.language&&(t.language=this.language),this.keepConversation&&(t.conversation_id=this.conversationId),this.answer=await v(this.hass,"try",t)}catch(t){this.error=this.errorMessage(t)}finally{this.busy=!1}}}onKey(e){e.key==="Enter"&&!e.shiftKey&&(e.preventDefault(),this.run())}render(){let e=this.t;return o`
      <div class="card">
        <h2>${e("try.heading")}</h2>
        <p class="muted">${e("try.intro")}</p>
        <div class="row">
          <div class="grow">
            <label for="utterance">${e("try.utterance")}</label>
            <input id="utterance" type="text" .value=${this.text} placeholder=${e("try.placeholder")}
              @input=${t=>this.text=t.target.value}
              @keydown=${this.onKey} />
          </div>
          <div>
            <label for="language">${e("common.language")}</label>
            <select id="language" .value=${this.language}
              @change=${t=>this.language=t.target.value}>
              ${vt.map(t=>o`<option value=${t} ?selected=${t===this.language}>
                ${e(t?`language.${t}`:"language.auto")}</option>`)}
            </select>
          </div>
          <button id="run" ?disabled=${this.busy||!this.text.trim()} @click=${this.run}>
            ${e("try.run")}</button>
        </div>
        <div class="row small" style="margin-top:8px">
          <label class="row" style="font-size:13px;color:var(--primary-text-color)">
            <input type="checkbox" .checked=${this.keepConversation}
              @change=${t=>this.keepConversation=t.target.checked} />
            ${e("try.keep_conversation")}
          </label>
          ${this.keepConversation?o`<button class="secondary" @click=${()=>{this.conversationId=q.newConversation()}}>${e("try.new_conversation")}</button>`:l}
        </div>
        ${this.progress(this.busy)}
        ${this.errorBox(this.error)}
      </div>
      ${this.answer?this.renderAnswer(this.answer):l}
    `}renderAnswer(e){let t=this.t;return o`
      <div class="card" id="tokens">
        <div class="row" style="justify-content:space-between">
          <div>
            <div class="big-number">${e.assist_tokens!==null?t("try.tokens_instead",{ours:this.num(e.yaml_tokens),assist:this.num(e.assist_tokens)}):t("try.tokens_only",{ours:this.num(e.yaml_tokens)})}</div>
            <div class="muted small">${t("try.tokens_note",{entities:this.num(e.entities)})}</div>
          </div>
          <div class="muted small">${t("try.detected",{language:e.language||"—",ms:this.num(e.milliseconds,1)})}</div>
        </div>
      </div>
      ${e.commands.map((a,i)=>this.renderCommand(a,i,e.commands.length))}
      <div class="card">
        <h3>${t("try.yaml_heading")} <span class="muted small">
          ${t("try.tokens",{count:this.num(e.yaml_tokens)})}</span></h3>
        ${e.yaml?o`<pre id="yaml">${e.yaml}</pre>`:o`<p class="muted" id="yaml-empty">${t("try.yaml_empty")}</p>`}
      </div>
    `}renderCommand(e,t,a){let i=this.t,r=e.parsed,h=new Set(e.selected.map(u=>u.entity_id)),d=(u,g,m="")=>g.length?o`<span class="chip ${m}"><b>${u}</b> ${g.join(", ")}</span>`:l;return o`
      <div class="card command">
        <h3>${a>1?i("try.command_n",{n:t+1}):i("try.command")}:
          <span class="muted">“${e.text}”</span></h3>
        <div class="chips" id="parsed">
          <span class="chip"><b>${i("try.action")}</b> ${r.action??"—"}</span>
          <span class="chip"><b>${i("try.quantifier")}</b> ${i(`quantifier.${r.quantifier}`)}</span>
          ${d(i("try.scope_in"),r.scope_in,"in")}
          ${d(i("try.scope_out"),r.scope_out,"out")}
          ${d(i("try.types"),r.types)}
          ${d(i("try.types_out"),r.types_out,"out")}
          ${d(i("try.mentions"),r.mentions)}
          ${d(i("try.mentions_out"),r.mentions_out,"out")}
          ${d(i("try.labels"),r.labels)}
          ${d(i("try.states"),r.states)}
          ${d(i("try.references"),r.references.length?r.references:r.reference?[r.reference]:[])}
          <span class="chip"><b>${i("try.confidence")}</b> ${this.num(r.confidence,2)}</span>
        </div>
        <div class="removed small" style="margin-top:10px">
          <div>${i("try.scope_removed",{count:this.num(r.scope_removed)})}
            ${r.excluded?i("try.excluded",{count:this.num(r.excluded)}):l}</div>
          <div>${r.capability_removed_count?i("try.capability_removed",{count:this.num(r.capability_removed_count),names:r.capability_removed.map(u=>u.name).join(", ")}):i("try.capability_none")}
            <span class="muted">(${i(`try.capability_${r.capability_filter==="hard"?"hard":"soft"}`)})</span></div>
        </div>
        <div class="gating" style="margin-top:10px">${this.renderGating(e)}</div>
        ${e.candidates.length?o`
          <div class="table-wrap" style="margin-top:12px">
            <table class="candidates cards">
              <thead><tr>
                <th>${i("common.entity")}</th>
                <th class="hide-narrow">${i("common.area")}</th>
                <th>${i("common.score")}</th>
                <th>${i("try.breakdown")}</th>
                <th>${i("try.reasons")}</th>
              </tr></thead>
              <tbody>${e.candidates.map(u=>o`
                <tr class=${h.has(u.entity_id)?"selected":""}>
                  <td>${h.has(u.entity_id)?"✓ ":""}${u.name}<br>
                    <code class="muted">${u.entity_id}</code></td>
                  <td class="hide-narrow">${u.area??"—"}</td>
                  <td>${this.num(u.score,3)}</td>
                  <td>${this.breakdown(u)}</td>
                  <td class="small">${this.reasons(u)}</td>
                </tr>`)}
              </tbody>
            </table>
          </div>`:l}
      </div>
    `}reasons(e){let t=this.t,a=e.reason_codes??[];return e.reasons.map((i,r)=>{let h=a[r];if(!h)return i;let d=h.field?t(`try.reason_field.${h.field}`):"",u=t(`try.reason.${h.code}`,{said:h.code==="type"?this.typeWords(h.said??""):h.code==="state"?this.stateWords(h.said??""):h.said??"",matched:h.matched??"",field:d.startsWith("try.")?h.field??"":d,score:h.score===void 0?"":this.num(h.score,2)});return u.startsWith("try.reason.")?i:u}).join("; ")}typeWords(e){return e.split("+").map(t=>{let a=this.t(`plan.type.${t}`);return a===`plan.type.${t}`?t:a}).join(" / ")}stateWords(e){return e.split("/").map(t=>{let a=this.t(`plan.status.${t}`);return a===`plan.status.${t}`?t:a}).join(" / ")}breakdown(e){let t=this.t,a=e.explain,i=e.score_breakdown,r=i&&i.keyword!==void 0&&i.vector!==void 0?o`<div class="small muted fusion">${t("try.fusion",{keyword:this.num(i.keyword,2),kw:this.num(i.keyword_weight??1,2),vector:this.num(i.vector,2),vw:this.num(i.vector_weight??0,2),total:this.num(i.total??e.score,3)})}</div>`:l;return a?o`${r}<div class="bars">
      <span>${t("score.keyword")}</span>${N(a.keyword)}<span>${this.num(a.keyword,2)}</span>
      <span>${t("score.semantic")}</span>${N(a.semantic,"semantic")}<span>${this.num(a.semantic,2)}</span>
      <span>${t("score.recency")}</span>${N(a.recency,"recency")}<span>${this.num(a.recency,2)}</span>
    </div>`:r||o`<span class="muted">—</span>`}renderGating(e){let t=this.t;return e.clarification?o`<div class="warning" id="question"><b>${t("try.gating_ask")}</b>
        “${e.clarification.question}”
        <ul>${e.clarification.options.map(a=>o`<li>${a.label}
          <code class="muted">${a.entity_id}</code></li>`)}</ul></div>`:e.selected.length?o`<div class="ok-note"><b>${t("try.gating_selected",{count:e.selected.length})}</b>
        ${e.selected.map(a=>a.name).join(", ")}</div>`:o`<div class="warning"><b>${t("try.gating_nothing")}</b></div>`}};q.styles=[w],c([p()],q.prototype,"text",2),c([p()],q.prototype,"language",2),c([p()],q.prototype,"keepConversation",2),c([p()],q.prototype,"busy",2),c([p()],q.prototype,"error",2),c([p()],q.prototype,"answer",2);var ne=q;function De(n){return n.match(/\s+|[()]|[^\s()]+/g)??[]}function Ie(n,s){let e=De(n),t=De(s),a=e.length,i=t.length,r=Array.from({length:a+1},()=>new Array(i+1).fill(0));for(let m=a-1;m>=0;m--)for(let y=i-1;y>=0;y--)r[m][y]=e[m]===t[y]?r[m+1][y+1]+1:Math.max(r[m+1][y],r[m][y+1]);let h=[],d=(m,y)=>{let x=h[h.length-1];x&&x.kind===y?x.text+=m:h.push({text:m,kind:y})},u=0,g=0;for(;u<a&&g<i;)e[u]===t[g]?(d(e[u],"same"),u++,g++):r[u+1][g]>=r[u][g+1]?(d(e[u],"del"),u++):(d(t[g],"add"),g++);for(;u<a;)d(e[u++],"del");for(;g<i;)d(t[g++],"add");return h}var yt=150,b=class extends _{constructor(){super(...arguments);this.rules=[];this.loading=!1;this.listError=null;this.editing=null;this.name="";this.text="";this.preview=null;this.previewError=null;this.previewPosition=null;this.previewing=!1;this.publishing=!1;this.message=null;this.actionError=null;this.revisions=[];this.confirmDelete=!1;this.latest=new A;this.schedulePreview=M(()=>this.runPreview(),yt)}connectedCallback(){super.connectedCallback(),this.load()}disconnectedCallback(){this.schedulePreview.cancel(),super.disconnectedCallback()}async load(){this.loading=!0,this.listError=null;try{this.rules=(await v(this.hass,"views/list")).rules}catch(e){this.listError=this.errorMessage(e)}finally{this.loading=!1}}startNew(){this.editing="",this.name="",this.text="",this.preview=null,this.previewError=null,this.revisions=[],this.message=null,this.actionError=null,this.confirmDelete=!1}async edit(e){this.editing=e.name,this.name=e.name,this.text=e.rule,this.message=null,this.actionError=null,this.confirmDelete=!1,this.runPreview(),this.loadRevisions(e.name)}async loadRevisions(e){try{this.revisions=(await v(this.hass,"views/revisions",{name:e})).revisions}catch(t){this.revisions=[],this.actionError=this.errorMessage(t)}}onRuleInput(e){if(this.text=e.target.value,this.message=null,this.actionError=null,!this.text.trim()){this.schedulePreview.cancel(),this.latest.cancel(),this.preview=null,this.previewError=null,this.previewing=!1;return}this.previewing=!0,this.schedulePreview()}async runPreview(){let e=this.text;if(e.trim()){this.previewing=!0;try{let{current:t,value:a}=await this.latest.run(()=>v(this.hass,"views/preview",{rule:e}).then(i=>({preview:i,error:null}),i=>({preview:null,error:i})));if(!t)return;this.preview=a.preview,this.previewError=a.error?this.errorMessage(a.error):null,this.previewPosition=a.error?je(a.error):null,this.previewing=!1}catch(t){this.previewError=this.errorMessage(t),this.previewing=!1}}}async publish(){if(!(!this.name.trim()||!this.text.trim())){this.publishing=!0,this.message=null,this.actionError=null;try{let e=await v(this.hass,"views/publish",{name:this.name,rule:this.text});this.editing=e.name,this.name=e.name,this.message=this.t("views.published",{name:e.name,count:e.entity_hits}),await Promise.all([this.load(),this.loadRevisions(e.name)])}catch(e){this.actionError=this.errorMessage(e)}finally{this.publishing=!1}}}async rollback(e){if(this.editing){this.publishing=!0;try{let t=await v(this.hass,"views/rollback",{name:this.editing,revision_id:e.id});this.text=t.rule,this.message=this.t("views.rolled_back",{name:t.name}),await Promise.all([this.load(),this.loadRevisions(t.name)]),this.runPreview()}catch(t){this.actionError=this.errorMessage(t)}finally{this.publishing=!1}}}async deleteRule(){if(this.editing){this.publishing=!0;try{await v(this.hass,"views/delete",{name:this.editing}),this.message=this.t("views.deleted",{name:this.editing}),this.editing=null,this.confirmDelete=!1,await this.load()}catch(e){this.actionError=this.errorMessage(e)}finally{this.publishing=!1}}}render(){let e=this.t;return o`
      <div class="card">
        <div class="row" style="justify-content:space-between">
          <h2>${e("views.heading")}</h2>
          <button id="new-rule" @click=${this.startNew}>${e("views.new")}</button>
        </div>
        <p class="muted">${e("views.intro")}</p>
        ${this.progress(this.loading)}
        ${this.errorBox(this.listError)}
        ${this.editing===null?this.notes():l}
        ${!this.loading&&!this.rules.length&&!this.listError?o`<p class="muted" id="no-rules">${e("views.empty")}</p>`:l}
        <div id="rules">${this.rules.map(t=>o`
          <div class="list-item clickable rule" @click=${()=>this.edit(t)}>
            <div class="grow">
              <div><b>${t.name}</b> <span class="muted small">${t.entity_id??""}</span></div>
              <code class="muted">${t.rule}</code>
              ${t.last_error?o`<div class="error small">${t.last_error}</div>`:l}
            </div>
            <div class="chip">${e("views.members",{count:this.num(t.entity_hits)})}</div>
          </div>`)}
        </div>
      </div>
      ${this.editing!==null?this.renderEditor():l}
    `}renderEditor(){let e=this.t,t=this.preview;return o`
      <div class="card" id="editor">
        <h3>${this.editing?e("views.edit",{name:this.editing}):e("views.create")}</h3>
        <div class="row">
          <div class="grow">
            <label for="rule-name">${e("views.name")}</label>
            <input id="rule-name" type="text" .value=${this.name}
              @input=${a=>this.name=a.target.value} />
          </div>
        </div>
        <div style="margin-top:8px">
          <label for="rule-text">${e("views.rule")}</label>
          <textarea id="rule-text" rows="2" .value=${this.text} placeholder=${e("views.rule_placeholder")}
            @input=${this.onRuleInput}></textarea>
          <div class="muted small">${e("views.rule_help")}</div>
        </div>
        ${this.progress(this.previewing)}
        ${this.previewError?o`<div class="error" id="preview-error" role="alert">
          ${this.previewError}
          ${this.previewPosition?this.marked(this.text,this.previewPosition):l}</div>`:l}
        ${t&&!this.previewError?this.renderPreview(t):l}
        <div class="row" style="margin-top:12px">
          <button id="publish" ?disabled=${this.publishing||!this.name.trim()||!this.text.trim()}
            @click=${this.publish}>${e("views.publish")}</button>
          ${this.editing?this.confirmDelete?o`
            <span>${e("views.confirm_delete",{name:this.editing})}</span>
            <button class="danger" id="confirm-delete" @click=${this.deleteRule}>${e("common.delete")}</button>
            <button class="secondary" @click=${()=>this.confirmDelete=!1}>${e("common.cancel")}</button>`:o`<button class="secondary" id="delete" @click=${()=>this.confirmDelete=!0}>
                ${e("common.delete")}</button>`:l}
        </div>
        ${this.progress(this.publishing)}
        ${this.notes()}
      </div>
      ${this.editing?this.renderRevisions():l}
    `}notes(){return o`${this.errorBox(this.actionError)}${this.message?o`<div class="ok-note" id="views-message">${this.message}</div>`:l}`}marked(e,t){let a=Math.min(Math.max(t-1,0),e.length);return o`<pre class="position">${e.slice(0,a)}<u class="caret">${e.slice(a,a+1)||" "}</u>${e.slice(a+1)}
<span style="visibility:hidden">${e.slice(0,a)}</span><span class="caret">^ ${this.t("views.position",{position:t})}</span></pre>`}renderPreview(e){let t=this.t,a=null;try{a=e.rule_json?JSON.parse(e.rule_json):null}catch{a=null}return o`
      <div id="preview" style="margin-top:12px">
        <div class="stats">
          <div class="stat"><div class="label">${t("views.total_hits")}</div>
            <div class="big-number" id="total-hits">${this.num(e.total_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.entity_hits")}</div>
            <div class="big-number">${this.num(e.entity_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.device_hits")}</div>
            <div class="big-number">${this.num(e.device_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.compiled_by")}</div>
            <div>${t(`views.source.${e.compile_source??"deterministic"}`)}</div>
            <div class="muted small">${this.num(e.milliseconds,1)} ms</div></div>
        </div>
        ${e.rewrite_note?o`<div class="warning">${t("views.rewrite_note")}: ${e.rewrite_note}</div>`:l}
        ${e.unresolved_tags?.length?o`<div class="warning">${t("views.unresolved",{tags:e.unresolved_tags.join(", ")})}</div>`:l}
        <div class="row" style="align-items:flex-start;margin-top:8px">
          <div class="grow">
            <h3>${t("views.tree")}</h3>
            <div class="tree">${a?o`<ul>${this.node(a)}</ul>`:l}</div>
          </div>
          <div class="grow">
            <h3>${t("views.json")}</h3>
            <pre id="rule-json">${e.rule_json?JSON.stringify(JSON.parse(e.rule_json),null,2):""}</pre>
          </div>
        </div>
        <h3 style="margin-top:12px">${t("views.samples")}</h3>
        ${e.sample_items.length?o`<div class="table-wrap"><table id="samples" class="cards">
          <thead><tr><th>${t("common.entity")}</th><th>${t("common.area")}</th></tr></thead>
          <tbody>${e.sample_items.map(i=>o`<tr><td>${i.name??""}
            <br><code class="muted">${i.id}</code></td><td>${i.area??"—"}</td></tr>`)}</tbody>
        </table></div>`:o`<p class="muted">${t("views.no_samples")}</p>`}
      </div>
    `}node(e){if(e.kind==="tag")return o`<li><span class="chip">${e.tag}</span></li>`;let t=e.op==="OR"?this.t("views.op_or"):e.op==="NOT"?this.t("views.op_not"):this.t("views.op_and");return o`<li><span class="op">${t}</span><ul>${(e.children??[]).map(a=>this.node(a))}</ul></li>`}renderRevisions(){let e=this.t,t=this.revisions[0];return o`
      <div class="card" id="revisions">
        <h3>${e("views.revisions")}</h3>
        ${this.revisions.length?l:o`<p class="muted">${e("views.no_revisions")}</p>`}
        ${this.revisions.map((a,i)=>o`
          <div class="list-item revision">
            <div class="grow">
              <div class="small muted">${new Date(a.created_at).toLocaleString(this.uiLang==="zh-Hans"?"zh-CN":"en-US")}
                · ${e(`views.source.${a.compile_source}`)}
                ${i===0?o`· <b>${e("views.current")}</b>`:l}</div>
              <code>${i===0||!t?a.rule_nl:Ie(t.rule_nl,a.rule_nl).map(r=>o`<span class=${r.kind==="same"?"":`diff-${r.kind}`}>${r.text}</span>`)}</code>
            </div>
            ${i>0?o`<button class="secondary rollback" ?disabled=${this.publishing}
              @click=${()=>this.rollback(a)}>${e("views.rollback")}</button>`:l}
          </div>`)}
      </div>
    `}};b.styles=[w],c([p()],b.prototype,"rules",2),c([p()],b.prototype,"loading",2),c([p()],b.prototype,"listError",2),c([p()],b.prototype,"editing",2),c([p()],b.prototype,"name",2),c([p()],b.prototype,"text",2),c([p()],b.prototype,"preview",2),c([p()],b.prototype,"previewError",2),c([p()],b.prototype,"previewPosition",2),c([p()],b.prototype,"previewing",2),c([p()],b.prototype,"publishing",2),c([p()],b.prototype,"message",2),c([p()],b.prototype,"actionError",2),c([p()],b.prototype,"revisions",2),c([p()],b.prototype,"confirmDelete",2);var We=["try","views","questions","search","rename","health"],P=class extends E{constructor(){super(...arguments);this.narrow=!1;this.page="try";this.onPopState=()=>{this.page=this.pageFromLocation()}}connectedCallback(){super.connectedCallback(),this.page=this.pageFromLocation(),window.addEventListener("popstate",this.onPopState)}disconnectedCallback(){window.removeEventListener("popstate",this.onPopState),super.disconnectedCallback()}pageFromLocation(){let e=window.location.pathname.split("/").filter(Boolean)[1];return We.includes(e)?e:"try"}willUpdate(){this.hass&&this.translationsFor!==this.hass.language&&(this.translationsFor=this.hass.language,this.hass.loadBackendTranslation?.("exceptions",ie))}go(e){if(e===this.page)return;this.page=e;let t=this.panel?.url_path||"context-retrieval";history.pushState(null,"",`/${t}/${e}`)}toggleMenu(){this.dispatchEvent(new CustomEvent("hass-toggle-menu",{bubbles:!0,composed:!0}))}menuButton(){if(customElements.get("ha-menu-button"))return o`<ha-menu-button .hass=${this.hass} .narrow=${this.narrow}></ha-menu-button>`;if(!this.narrow)return l;let e=Y(this.hass?.language);return o`<button class="menu" aria-label=${e("panel.menu")} @click=${this.toggleMenu}>
      <svg viewBox="0 0 24 24" width="24" height="24"><path fill="currentColor"
        d="M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z"/></svg></button>`}brand(){let e=this.panel?.config?.brand;if(!e)return l;let t=this.hass.themes?.darkMode?"dark_":"";return o`<img class="brand" src="${e}/${t}icon.png" alt="" width="28" height="28">`}render(){if(!this.hass)return o`<div class="loading"></div>`;let e=Y(this.hass.language);return o`
      <header class="toolbar">
        ${this.menuButton()}
        ${this.brand()}
        <div class="title">${e("panel.title")}</div>
      </header>
      <nav class="tabs" role="tablist">
        ${We.map(t=>o`
          <button role="tab" class="tab ${t===this.page?"active":""}"
            aria-selected=${t===this.page?"true":"false"} data-page=${t}
            @click=${()=>this.go(t)}>${e(`tab.${t}`)}</button>`)}
      </nav>
      <main>${this.renderPage()}</main>
    `}renderPage(){let e=this.hass,t=this.narrow;switch(this.page){case"views":return o`<cr-views .hass=${e} .narrow=${t}></cr-views>`;case"questions":return o`<cr-questions .hass=${e} .narrow=${t}></cr-questions>`;case"search":return o`<cr-search .hass=${e} .narrow=${t}></cr-search>`;case"rename":return o`<cr-rename .hass=${e} .narrow=${t}></cr-rename>`;case"health":return o`<cr-health .hass=${e} .narrow=${t}></cr-health>`;default:return o`<cr-try .hass=${e} .narrow=${t}></cr-try>`}}};P.styles=[w,C`
    :host {
      display: block;
      min-height: 100vh;
      background: var(--primary-background-color);
    }
    .toolbar {
      display: flex;
      align-items: center;
      height: var(--header-height, 56px);
      padding: 0 12px;
      box-sizing: border-box;
      background: var(--app-header-background-color, var(--primary-color));
      color: var(--app-header-text-color, var(--text-primary-color, #fff));
      border-bottom: var(--app-header-border-bottom, none);
      gap: 8px;
    }
    .title { font-size: 20px; font-weight: 400; margin-left: 8px; }
    .brand { width: 28px; height: 28px; margin-left: 8px; border-radius: 6px; }
    button.menu {
      background: transparent; color: inherit; border-radius: 50%; padding: 8px; min-height: 0;
    }
    .tabs {
      display: flex;
      overflow-x: auto;
      gap: 4px;
      padding: 0 8px;
      background: var(--app-header-background-color, var(--primary-color));
      border-bottom: 1px solid var(--divider-color);
      scrollbar-width: none;
    }
    .tab {
      background: transparent;
      color: var(--app-header-text-color, var(--text-primary-color, #fff));
      opacity: 0.75;
      border-radius: 0;
      border-bottom: 2px solid transparent;
      padding: 10px 14px;
      white-space: nowrap;
    }
    .tab.active { opacity: 1; border-bottom-color: currentColor; }
    main {
      max-width: 1100px;
      margin: 0 auto;
      padding: 16px;
    }
    :host([narrow]) main { padding: 8px; }
  `],c([S({attribute:!1})],P.prototype,"hass",2),c([S({type:Boolean,reflect:!0})],P.prototype,"narrow",2),c([S({attribute:!1})],P.prototype,"route",2),c([S({attribute:!1})],P.prototype,"panel",2),c([p()],P.prototype,"page",2);var bt=[["cr-try",ne],["cr-views",b],["cr-questions",f],["cr-search",k],["cr-rename",$],["cr-health",H],["context-retrieval-panel",P]];for(let[n,s]of bt)customElements.get(n)||customElements.define(n,s);
/*! Bundled license information:

@lit/reactive-element/css-tag.js:
  (**
   * @license
   * Copyright 2019 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

@lit/reactive-element/reactive-element.js:
lit-html/lit-html.js:
lit-element/lit-element.js:
@lit/reactive-element/decorators/custom-element.js:
@lit/reactive-element/decorators/property.js:
@lit/reactive-element/decorators/state.js:
@lit/reactive-element/decorators/event-options.js:
@lit/reactive-element/decorators/base.js:
@lit/reactive-element/decorators/query.js:
@lit/reactive-element/decorators/query-all.js:
@lit/reactive-element/decorators/query-async.js:
@lit/reactive-element/decorators/query-assigned-nodes.js:
  (**
   * @license
   * Copyright 2017 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

lit-html/is-server.js:
  (**
   * @license
   * Copyright 2022 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

@lit/reactive-element/decorators/query-assigned-elements.js:
  (**
   * @license
   * Copyright 2021 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)
*/
