/**
 * The one script a hosted page runs: "use my location". On the shopper's tap (never before) it asks the
 * browser for the position, then posts the button's form with the position as `lat` and `lon` and
 * `intent=locate`; the server turns it into a DIGIPIN and keeps only that. Refused or failed, it says so
 * in the status line and the shopper can type a DIGIPIN. Without it (no script, no geolocation) the
 * button stays hidden and the typed DIGIPIN remains. The hosted pages' CSP allows this text by its hash
 * (app/http/responses.server.ts), and nothing else.
 */
export const LOCATION_SCRIPT = `(function(){var b=document.getElementById("loc-btn");var s=document.getElementById("loc-status");if(!b||!s||!navigator.geolocation)return;b.hidden=false;b.addEventListener("click",function(){s.textContent=b.getAttribute("data-wait");b.disabled=true;navigator.geolocation.getCurrentPosition(function(p){var f=b.form;function put(n,v){var i=document.createElement("input");i.type="hidden";i.name=n;i.value=String(v);f.appendChild(i)}put("lat",p.coords.latitude);put("lon",p.coords.longitude);put("intent","locate");f.noValidate=true;f.submit()},function(e){b.disabled=false;s.textContent=b.getAttribute(e.code===1?"data-denied":"data-failed")},{enableHighAccuracy:true,timeout:20000,maximumAge:60000})})})();`;
