import type { Locale } from "~/shared/locales";

/**
 * The hosted page's words for "I did not place this order": the question before it is sent, and the
 * undo while the shop is not told yet ({order} {minutes}).
 */
export type DisputeTexts = {
  askTitle: string;
  askBody: string;
  askYes: string;
  askNo: string;
  pendingTitle: string;
  pendingBody: string;
  undo: string;
  undone: string;
};

export const DISPUTE_TEXTS: Record<Locale, DisputeTexts> = {
  en: {
    askTitle: "Did you not place this order?",
    askBody: "We will tell the shop that you did not place order {order}. Nothing is cancelled by this: the shop decides what happens next.",
    askYes: "Yes, I did not place this order",
    askNo: "No, go back",
    pendingTitle: "Thank you for telling us",
    pendingBody: "The shop will be told that you did not place order {order}. If you tapped this by mistake, you can undo it for {minutes} more minutes.",
    undo: "Undo: I placed this order",
    undone: "Undone: the shop will not be told. You can confirm your order below.",
  },
  hi: {
    askTitle: "क्या यह ऑर्डर आपने नहीं दिया?",
    askBody: "हम दुकान को बताएँगे कि ऑर्डर {order} आपने नहीं दिया। इससे कुछ रद्द नहीं होता: आगे क्या होगा, यह दुकान तय करेगी।",
    askYes: "हाँ, यह ऑर्डर मैंने नहीं दिया",
    askNo: "नहीं, वापस जाएँ",
    pendingTitle: "बताने के लिए धन्यवाद",
    pendingBody: "दुकान को बताया जाएगा कि ऑर्डर {order} आपने नहीं दिया। अगर यह गलती से हुआ, तो आप अगले {minutes} मिनट तक इसे वापस ले सकते हैं।",
    undo: "वापस लें: यह ऑर्डर मैंने दिया है",
    undone: "वापस ले लिया गया: दुकान को नहीं बताया जाएगा। आप नीचे अपना ऑर्डर पक्का कर सकते हैं।",
  },
  ar: {
    askTitle: "ألم تقدّم هذا الطلب؟",
    askBody: "سنُبلغ المتجر بأنك لم تقدّم الطلب {order}. لا يُلغى شيء بذلك: المتجر يقرّر ما يحدث بعد ذلك.",
    askYes: "نعم، لم أقدّم هذا الطلب",
    askNo: "لا، رجوع",
    pendingTitle: "شكرًا لإخبارنا",
    pendingBody: "سيُبلَّغ المتجر بأنك لم تقدّم الطلب {order}. إن ضغطت على ذلك خطأً، يمكنك التراجع خلال {minutes} دقائق.",
    undo: "تراجع: أنا قدّمت هذا الطلب",
    undone: "تم التراجع: لن يُبلَّغ المتجر. يمكنك تأكيد طلبك أدناه.",
  },
  fr: {
    askTitle: "Vous n'avez pas passé cette commande ?",
    askBody: "Nous allons signaler à la boutique que vous n'avez pas passé la commande {order}. Rien n'est annulé pour autant : la boutique décide de la suite.",
    askYes: "Oui, je n'ai pas passé cette commande",
    askNo: "Non, revenir",
    pendingTitle: "Merci de nous avoir prévenus",
    pendingBody: "La boutique sera prévenue que vous n'avez pas passé la commande {order}. Si c'était une erreur, vous pouvez annuler pendant encore {minutes} minutes.",
    undo: "Annuler : j'ai passé cette commande",
    undone: "C'est annulé : la boutique ne sera pas prévenue. Vous pouvez confirmer votre commande ci-dessous.",
  },
  es: {
    askTitle: "¿No hiciste este pedido?",
    askBody: "Avisaremos a la tienda de que no hiciste el pedido {order}. Esto no cancela nada: la tienda decide qué pasa después.",
    askYes: "Sí, no hice este pedido",
    askNo: "No, volver",
    pendingTitle: "Gracias por avisarnos",
    pendingBody: "Se avisará a la tienda de que no hiciste el pedido {order}. Si fue un error, puedes deshacerlo durante {minutes} minutos más.",
    undo: "Deshacer: sí hice este pedido",
    undone: "Deshecho: no se avisará a la tienda. Puedes confirmar tu pedido abajo.",
  },
};
